#!/usr/bin/env bash
# check-tracked-test.sh: the test of check-tracked.sh, on throw-away git
# repositories: it must pass on text files and allowed screenshots, and fail,
# naming the file, on each kind of file it exists to keep out.
set -euo pipefail
check=$(cd "$(dirname "$0")" && pwd)/check-tracked.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# repo NAME: a new repository with one text file and one allowed screenshot.
repo() {
  local dir=$tmp/$1
  git init -q "$dir"
  mkdir -p "$dir/editors/vscode/images"
  echo 'package main' >"$dir/main.go"
  printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' >"$dir/editors/vscode/images/hover.png"
  git -C "$dir" add .
  echo "$dir"
}

# expect WANT NAME: runs the check on repository NAME; WANT is "pass" or
# a string its error output must contain.
expect() {
  local want=$1 name=$2 out rc=0
  out=$(bash "$check" "$tmp/$name" 2>&1) || rc=$?
  if [[ $want == pass ]]; then
    ((rc == 0)) || { echo "FAIL $name: want pass, got rc=$rc: $out"; failures=$((failures + 1)); }
  elif ((rc == 0)) || [[ $out != *"$want"* ]]; then
    echo "FAIL $name: want failure mentioning \"$want\", got rc=$rc: $out"
    failures=$((failures + 1))
  fi
  return 0
}

repo clean >/dev/null
expect pass clean

# An empty repository has nothing to check.
git init -q "$tmp/empty"
expect pass empty

d=$(repo elf)
printf '\x7fELF\x02\x01\x01\0\0\0\0\0' >"$d/jitlint"
git -C "$d" add jitlint
expect 'jitlint: a compiled program' elf

# A compiled program does not become an asset by its name.
d=$(repo disguised)
printf '\xcf\xfa\xed\xfe\x07\0\0\x01' >"$d/editors/vscode/images/tool.png"
git -C "$d" add .
expect 'tool.png: a compiled program' disguised

d=$(repo pe)
printf 'MZ\x90\0\x03\0\0\0' >"$d/jitls.exe"
git -C "$d" add jitls.exe
expect 'jitls.exe: a compiled program' pe

d=$(repo blob)
printf 'data\0more' >"$d/weights.bin"
git -C "$d" add weights.bin
expect 'weights.bin: a binary file is tracked' blob

d=$(repo large)
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' 'x' >"$d/big.txt"
git -C "$d" add big.txt
expect 'big.txt: 1048577 bytes' large

# The index is what counts: a staged binary fails though the working tree lost it.
d=$(repo staged)
printf '\x7fELF\x02\x01\x01\0' >"$d/a.out"
git -C "$d" add a.out
rm "$d/a.out"
expect 'a.out: a compiled program' staged

if ((failures)); then
  echo "check-tracked-test: $failures failures"
  exit 1
fi
echo "check-tracked-test: ok"
