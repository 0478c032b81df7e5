#!/bin/bash
# bench/tracecost.sh OLD_REV [ROUNDS]: compares the trace cost per equation
# (BenchmarkTracePerEquation) of the checkout with OLD_REV side by side.
# Under load, wall times on a shared machine swing several-fold, so besides
# ns/op it reports the process CPU time (user+sys, GOMAXPROCS=1) of a fixed
# 2000 traces of 1000 equations, alternating the two binaries ROUNDS times.
set -euo pipefail
old=${1:?usage: bench/tracecost.sh OLD_REV [ROUNDS]}
rounds=${2:-8}
cd "$(git rev-parse --show-toplevel)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/old"
git archive "$old" | tar -x -C "$tmp/old"
(cd "$tmp/old" && go test -c -o "$tmp/old.test" ./jit)
go test -c -o "$tmp/new.test" ./jit
for _ in $(seq "$rounds"); do
  for v in old new; do
    t=$({ /usr/bin/time -f "%U %S" env GOMAXPROCS=1 "$tmp/$v.test" -test.run XXX -test.bench TracePerEquation -test.benchtime 2000x >/dev/null; } 2>&1 | tail -1)
    echo "$v $t"
  done
done > "$tmp/cpu.txt"
for v in old new; do
  grep "^$v " "$tmp/cpu.txt" | awk '{print ($2+$3)/2000/1000*1e9}' | sort -n |
    awk -v v="$v" '{a[NR]=$1} END{printf "%s: CPU ns/eqn min %.0f median %.0f (%d runs)\n", v, a[1], a[int((NR+1)/2)], NR}'
done
