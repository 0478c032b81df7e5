#!/usr/bin/env bash
# golangci-check.sh — build a real golangci-lint v2 with the jitlint module
# plugin (analyzers/golangci) and check its findings on examples/codelab.
#
# The build is golangci-lint's own: `golangci-lint custom`, run in
# scripts/golangci/ with the .custom-gcl.yml there (the plugin by `path:`,
# this checkout). Its one step that needs more than the Go module proxy is
# the `git clone` of golangci-lint's repository at the version's tag; git's
# url.<base>.insteadOf (passed in GIT_CONFIG_* variables, which golangci-lint
# custom hands on to git) points that clone at a local git repository made
# from the module proxy's source of the same version. Everything after the
# clone (plugin imports, go mod edit -replace, go mod tidy, go build) is
# golangci-lint custom's code, unchanged.
#
# Then `go test -run TestGolangciLint ./cmd/jitlint` runs the custom binary
# with scripts/golangci/.golangci.yml on the codelab and requires exactly the
# seven findings that cmd/jitlint's other tests expect.
#
# Both binaries are cached outside the repository, under
# ${XDG_CACHE_HOME:-$HOME/.cache}/jitlint-ci/golangci: the bootstrap
# golangci-lint keyed by its version and the Go version, the custom one also
# by a hash of the plugin's source (the jitlint packages it links, go.mod,
# go.sum, the two config files and this script). A warm run only runs the
# test. GOLANGCI_CHECK_NO_CACHE=1 builds afresh (into a temporary cache).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cfgdir=$root/scripts/golangci
start=$SECONDS
say() { printf 'golangci-check: %s (t=%ds)\n' "$*" $((SECONDS - start)); }

version=$(sed -n 's/^version: *//p' "$cfgdir/.custom-gcl.yml")
[[ $version == v2.* ]] || { echo "golangci-check: no v2 version in $cfgdir/.custom-gcl.yml" >&2; exit 1; }
gover=$(go env GOVERSION)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache=${XDG_CACHE_HOME:-$HOME/.cache}/jitlint-ci/golangci
[[ ${GOLANGCI_CHECK_NO_CACHE:-} == 1 ]] && cache=$work/cache

# The plugin's source: the files of the jitlint packages that the plugin
# links, plus what else decides the build.
plugin_files() {
  (cd "$root" && go list -deps -f '{{if .Module}}{{if eq .Module.Path "github.com/jitlint/jitlint"}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{end}}{{end}}' ./analyzers/golangci)
  printf '%s\n' "$root/go.mod" "$root/go.sum" "$cfgdir/.custom-gcl.yml" "$cfgdir/.golangci.yml" "$root/scripts/golangci-check.sh"
}
key=$( { echo "$version $gover $(go env GOOS GOARCH)"; plugin_files | sort | xargs sha256sum | sed "s|$root/||"; } | sha256sum | cut -c1-16)
custom=$cache/custom-$version-$key/custom-gcl
bootstrap=$cache/bootstrap-$version-$gover/golangci-lint

if [[ -x $custom ]]; then
  say "cached $custom"
else
  if [[ ! -x $bootstrap ]]; then
    say "building golangci-lint $version (bootstrap) from the module proxy"
    GOBIN=$(dirname "$bootstrap") go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$version"
  fi
  say "making a git repository of golangci-lint $version's module source"
  src=$(go mod download -json "github.com/golangci/golangci-lint/v2@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -d $src ]] || { echo "golangci-check: go mod download gave no source directory for golangci-lint $version" >&2; exit 1; }
  cp -r "$src" "$work/repo"
  chmod -R u+w "$work/repo"
  git -C "$work/repo" init -q
  git -C "$work/repo" add -A
  git -C "$work/repo" -c user.name=golangci-check -c user.email=golangci-check@localhost commit -qm "golangci-lint $version (module proxy source)"
  git -C "$work/repo" tag "$version"

  say "golangci-lint custom (plugin path: $root)"
  rm -rf "$(dirname "$custom")"
  (cd "$cfgdir" &&
    GIT_CONFIG_COUNT=1 \
      GIT_CONFIG_KEY_0="url.file://$work/repo.insteadOf" \
      GIT_CONFIG_VALUE_0="https://github.com/golangci/golangci-lint.git" \
      "$bootstrap" custom --destination "$(dirname "$custom")" -v)
  # Keep only this key's custom binary.
  find "$cache" -maxdepth 1 -name 'custom-*' ! -path "$(dirname "$custom")" -exec rm -rf {} +
fi
"$custom" version

say "checking the findings on examples/codelab"
(cd "$root" && JITLINT_GOLANGCI_LINT="$custom" go test -count=1 -run '^TestGolangciLint$' -v ./cmd/jitlint | grep -v '^=== RUN')
say "done"
