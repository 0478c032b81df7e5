#!/usr/bin/env bash
# The end-to-end test of the extension: builds jitls from ../../cmd/jitls,
# packages the .vsix, installs code-server (setup-code-server.sh),
# then runs e2e/trusted.test.ts and e2e/untrusted.test.ts, which install the
# .vsix into fresh code-server profiles, drive them with playwright-core and
# Debian's Chromium, and save screenshots in images/.
# Set JITLINT_E2E_KEEP=1 to keep the temporary profiles for debugging.
set -euo pipefail
cd "$(dirname "$0")/.."

bash e2e/setup-code-server.sh
mkdir -p .e2e/bin
(cd ../.. && go build -o editors/vscode/.e2e/bin/jitls ./cmd/jitls)
npm run --silent package
rm -rf out/e2e
npm run --silent compile-tests
JITLINT_VSCODE_E2E=1 node --test --test-concurrency=1 out/e2e/
