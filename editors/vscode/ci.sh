#!/usr/bin/env bash
# CI for the VS Code extension: install (npm ci), lint (eslint + tsc --noEmit
# strict), build (esbuild), unit tests (node --test), package (vsce → jitlint.vsix).
# Set JITLINT_VSCODE_E2E=1 to also run the end-to-end test in code-server
# (README.md, "End-to-end test": it installs code-server and Debian packages and takes minutes).
# Needs Node.js >= 20 and npm; reaches only the npm registry.
set -euo pipefail
cd "$(dirname "$0")"

echo "== editors/vscode: npm ci"
npm ci --no-audit --no-fund
echo "== editors/vscode: lint (eslint, tsc --noEmit)"
npm run --silent lint
echo "== editors/vscode: build"
npm run --silent build
echo "== editors/vscode: unit tests"
npm test
echo "== editors/vscode: package"
npm run --silent package
ls -l jitlint.vsix

if [[ "${JITLINT_VSCODE_E2E:-}" == "1" ]]; then
  echo "== editors/vscode: end-to-end test in code-server"
  bash e2e/run.sh
fi
