#!/usr/bin/env bash
# scaling.sh [N...]: the cost of jitlint against plain go vet as a package
# grows. For each N (default 1000 2000 4000 8000) it generates, in a temp
# module that uses this checkout's jit, one package of N one-line functions
# over jit.Array, two of them jitted:
#
#	func F000123(x jit.Array) jit.Array { return x.Sin().Add(x.Mul(26)) }
#
# builds it once (so dependencies are compiled), then times, side by side,
# plain `go vet` and `jitlint` on it, and prints each time and the growth per
# step. Nothing is left behind.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sizes=("${@:-1000 2000 4000 8000}")
read -r -a sizes <<<"${sizes[*]}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/jitlint" ./cmd/jitlint)
echo "machine: $(nproc) CPUs, $(go version), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%6s %10s %10s %8s %10s\n' N "go vet s" "jitlint s" ratio "growth"
prev=
for n in "${sizes[@]}"; do
	mod="$work/m$n"
	mkdir -p "$mod/gen"
	cat >"$mod/go.mod" <<MOD
module scaling

go 1.26.0

require github.com/jitlint/jitlint v0.0.0

replace github.com/jitlint/jitlint => $root
MOD
	cp "$root/go.sum" "$mod/go.sum"
	{
		echo "package gen"
		echo
		echo 'import "github.com/jitlint/jitlint/jit"'
		echo
		for i in $(seq 0 $((n - 1))); do
			printf 'func F%06d(x jit.Array) jit.Array { return x.Sin().Add(x.Mul(%d)) }\n' "$i" $((i % 97))
		done
		echo
		echo "var J0 = jit.Jit(F000000)"
		printf 'var J1 = jit.Jit(F%06d)\n' $((n - 1))
	} >"$mod/gen/gen.go"
	(cd "$mod" && GOFLAGS=-mod=mod go build ./... 2>/dev/null || (cd "$mod" && go mod tidy >/dev/null 2>&1 && go build ./...))
	t0=$(date +%s.%N)
	(cd "$mod" && go vet ./gen)
	t1=$(date +%s.%N)
	(cd "$mod" && "$work/jitlint" ./gen)
	t2=$(date +%s.%N)
	v=$(echo "$t1 - $t0" | bc) j=$(echo "$t2 - $t1" | bc)
	g=-
	if [ -n "$prev" ]; then g=$(printf '×%.2f' "$(echo "$j / $prev" | bc -l)"); fi
	printf '%6d %10.2f %10.2f %8.2f %10s\n' "$n" "$v" "$j" "$(echo "$j / $v" | bc -l)" "$g"
	prev=$j
done
