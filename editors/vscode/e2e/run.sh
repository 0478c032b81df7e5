#!/usr/bin/env bash
# The end-to-end test of the extension: builds jitls from ../../cmd/jitls,
# packages the .vsix, installs code-server (setup-code-server.sh),
# then runs e2e/trusted.test.ts, e2e/untrusted.test.ts and e2e/trace.test.ts,
# which install the .vsix into fresh code-server profiles, drive them with
# playwright-core and Debian's Chromium, and save screenshots in
# .e2e/screenshots/ (or $JITLINT_E2E_SCREENSHOTS), never in the committed
# images/: e2e/update-screenshots.sh copies them there on purpose.
# Set JITLINT_E2E_KEEP=1 to keep the temporary profiles for debugging.
set -euo pipefail
cd "$(dirname "$0")/.."

bash e2e/setup-code-server.sh
mkdir -p .e2e/bin
(cd ../.. && go build -o editors/vscode/.e2e/bin/jitls ./cmd/jitls)
npm run --silent package
rm -rf out/e2e
npm run --silent compile-tests
screenshots=${JITLINT_E2E_SCREENSHOTS:-$PWD/.e2e/screenshots}
mkdir -p "$screenshots"
rm -f "$screenshots"/*.png # last run's, so that the check below sees this run's only
JITLINT_VSCODE_E2E=1 JITLINT_E2E_SCREENSHOTS=$screenshots node --test --test-concurrency=1 out/e2e/

# Every screenshot the README shows must be one the test takes, or nothing
# would ever refresh it.
missing=0
for image in images/*.png; do
  if [[ ! -f $screenshots/$(basename "$image") ]]; then
    echo "e2e: $image is committed but no test saved $(basename "$image"); take it in a test or delete it" >&2
    missing=1
  fi
done
((missing == 0))
echo "e2e: screenshots in $screenshots (e2e/update-screenshots.sh copies them into images/)"
