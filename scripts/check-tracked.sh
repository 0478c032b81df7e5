#!/usr/bin/env bash
# check-tracked.sh [repo]: fails when the git repository at repo (default:
# this one) tracks
#   - a compiled program or object file (ELF, Mach-O or PE/COFF magic), anywhere;
#   - a file git sees as binary (a NUL byte near its start) that binaryOK below
#     does not allow;
#   - a file over 1 MiB that largeOK below does not allow.
# It checks the index (what is staged or committed), not the working tree, and
# names each offending file with what to do about it. Run by .ci/run; tested by
# scripts/check-tracked-test.sh.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

# Patterns (bash globs on the path; * also matches /) of the binary files the
# repository keeps on purpose.
binaryOK=(
  'editors/vscode/images/*.png' # the README's screenshots (editors/vscode/README.md, "Screenshots")
)
# Patterns of the files allowed over the size limit (none today).
largeOK=()
limit=$((1024 * 1024))

matches() { # matches PATH PATTERN...: whether PATH matches one of the patterns
  local path=$1 pattern
  shift
  for pattern in "$@"; do
    # shellcheck disable=SC2053 # the pattern is a glob on purpose
    [[ $path == $pattern ]] && return 0
  done
  return 1
}

# Which index entries git sees as binary: "i/-text" in ls-files --eol.
declare -A binary=()
while IFS= read -r -d '' rec; do
  [[ ${rec%%$'\t'*} == i/-text* ]] && binary[${rec#*$'\t'}]=1
done < <(git ls-files -z --eol)

# Each index entry's object and path, then the objects' sizes in the same order.
objs=() paths=()
while IFS= read -r -d '' rec; do
  meta=${rec%%$'\t'*} # mode object stage
  read -r _ obj _ <<<"$meta"
  objs+=("$obj")
  paths+=("${rec#*$'\t'}")
done < <(git ls-files -z -s)
sizes=()
if ((${#objs[@]})); then
  mapfile -t sizes < <(printf '%s\n' "${objs[@]}" | git cat-file --batch-check='%(objectsize)')
fi

bad=0
report() { # report PATH MESSAGE
  printf 'check-tracked: %s: %s\n' "$1" "$2" >&2
  bad=1
}
for i in "${!paths[@]}"; do
  path=${paths[i]} size=${sizes[i]}
  if [[ -n ${binary[$path]:-} ]]; then
    # head closes the pipe after 4 bytes, so git may die of SIGPIPE: not an error.
    magic=$(git cat-file blob "${objs[i]}" | head -c 4 | od -An -tx1 | tr -d ' \n' || true)
    case $magic in
    7f454c46 | feedface | feedfacf | cefaedfe | cffaedfe | cafebabe | 4d5a*)
      report "$path" "a compiled program or object file (magic $magic) is tracked; remove it (git rm --cached) and build into bin/ or a temporary directory"
      ;;
    *)
      matches "$path" "${binaryOK[@]}" ||
        report "$path" "a binary file is tracked; if it is a deliberate asset, add its pattern to binaryOK in scripts/check-tracked.sh, otherwise remove it (git rm --cached)"
      ;;
    esac
  fi
  if ((size > limit)) && ! matches "$path" "${largeOK[@]}"; then
    report "$path" "$size bytes, over the limit of $limit; keep it out of the repository (generate it, or fetch it in CI), or add its pattern to largeOK in scripts/check-tracked.sh"
  fi
done
if ((bad)); then
  exit 1
fi
echo "check-tracked: ${#paths[@]} tracked files, no compiled binary, no unexpected binary, none over $limit bytes"
