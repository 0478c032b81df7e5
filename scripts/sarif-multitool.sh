#!/usr/bin/env bash
# sarif-multitool.sh — install Microsoft's SARIF Multitool (the npm package
# @microsoft/sarif-multitool, a self-contained .NET binary per platform)
# into a cache and print the path of its binary.
#
#   JITLINT_SARIF_MULTITOOL=$(scripts/sarif-multitool.sh)
#   go test ./cmd/jitlint -run SARIFMultitool -v
#
# The cache is ${XDG_CACHE_HOME:-$HOME/.cache}/jitlint-ci/sarif-multitool-VERSION,
# so CI installs it once per version. Needs npm and the npm registry.
set -euo pipefail
version=5.7.0
dir=${XDG_CACHE_HOME:-$HOME/.cache}/jitlint-ci/sarif-multitool-$version
bin=$dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
case "$(uname -s)" in
  Linux) ;;
  *) echo "sarif-multitool.sh: only Linux is supported (the binary is @microsoft/sarif-multitool-linux)" >&2; exit 1 ;;
esac
if [[ ! -x $bin ]]; then
  mkdir -p "$dir"
  # The platform package's postinstall only makes the binary executable;
  # npm may not run it (install scripts off), so do it here.
  npm install --prefix "$dir" --no-audit --no-fund --silent "@microsoft/sarif-multitool@$version" >&2
  chmod u+x "$bin"
fi
echo "$bin"
