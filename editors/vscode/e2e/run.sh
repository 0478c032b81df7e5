#!/usr/bin/env bash
# The end-to-end test of the extension: builds jitls from ../../cmd/jitls,
# packages the .vsix, installs code-server (setup-code-server.sh),
# then runs e2e/e2e.test.ts, which installs the .vsix into a fresh code-server,
# drives it with Playwright and Debian's Chromium, and saves screenshots in
# images/. Set JITLINT_E2E_KEEP=1 to keep the temporary profile for debugging.
set -euo pipefail
cd "$(dirname "$0")/.."

bash e2e/setup-code-server.sh
mkdir -p .e2e/bin
(cd ../.. && go build -o editors/vscode/.e2e/bin/jitls ./cmd/jitls)
npx vsce package --no-dependencies --out jitlint.vsix
rm -rf out/e2e
npm run --silent compile-tests
JITLINT_VSCODE_E2E=1 node --test --test-concurrency=1 out/e2e/
