#!/usr/bin/env bash
# Installs code-server 4.100.3 (the last release on npm that runs on Node.js 20)
# into editors/vscode/.e2e/code-server, plus the Debian packages the end-to-end
# test needs. Idempotent: does nothing when that version is already there.
#
# code-server's own postinstall cannot run here: it refuses root without
# --unsafe-perm, and VS Code's @vscode/ripgrep and argon2 download prebuilt
# binaries from GitHub. So this script does the postinstall's steps itself:
# install VS Code's dependencies without scripts, put Debian's rg where
# @vscode/ripgrep looks, build the native modules from source against the
# local Node.js headers, and make postinstall.sh's symlinks.
set -euo pipefail

version=4.100.3
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/.e2e/code-server"
bin="$dest/node_modules/.bin/code-server"

if [[ -x "$bin" ]] && "$bin" --version 2>/dev/null | grep -q "^$version "; then
  echo "code-server $version already in $dest"
  exit 0
fi

need=()
for pkg in chromium ripgrep libkrb5-dev build-essential pkg-config python3; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
  if [[ "$(id -u)" != 0 ]]; then
    echo "e2e: missing Debian packages ${need[*]}; install them (apt-get install ${need[*]}) and run again" >&2
    exit 1
  fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
fi

node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [[ "$node_major" != 20 ]]; then
  echo "e2e: code-server $version needs Node.js 20, this is $(node --version)" >&2
  exit 1
fi
# node-gyp would download the Node.js headers; use the installed ones when present.
if [[ -f /usr/include/node/node.h ]]; then
  export npm_config_nodedir=/usr
fi
# node-pty's postinstall runs `npx node-gyp`; let npx fetch it from npm without asking.
export npm_config_yes=true

rm -rf "$dest"
mkdir -p "$dest"
cd "$dest"
echo '{"name": "jitlint-e2e-code-server", "private": true}' >package.json
npm install --no-audit --no-fund --ignore-scripts "code-server@$version"
npm rebuild --foreground-scripts argon2

vs="$dest/node_modules/code-server/lib/vscode"
(cd "$vs" && npm install --no-audit --no-fund --omit=dev --ignore-scripts)
mkdir -p "$vs/node_modules/@vscode/ripgrep/bin"
ln -sf "$(command -v rg)" "$vs/node_modules/@vscode/ripgrep/bin/rg"
(cd "$vs" && npm rebuild --foreground-scripts)
(cd "$vs/extensions" && npm install --no-audit --no-fund --omit=dev --ignore-scripts)
ln -sfn node_modules "$vs/node_modules.asar"
ln -sf code-linux.sh "$vs/bin/remote-cli/code-server"
ln -sf browser-linux.sh "$vs/bin/helpers/browser.sh"

"$bin" --version
