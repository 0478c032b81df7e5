#!/usr/bin/env bash
# Refreshes the README's screenshots (images/*.png): runs the end-to-end test
# (e2e/run.sh), then copies the screenshots it saved over the committed ones.
# The only command that writes images/; commit the result if it looks right.
set -euo pipefail
cd "$(dirname "$0")/.."

screenshots=$(mktemp -d)
trap 'rm -rf "$screenshots"' EXIT
JITLINT_E2E_SCREENSHOTS=$screenshots bash e2e/run.sh
cp "$screenshots"/*.png images/
git status --short -- images/
