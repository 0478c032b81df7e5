#!/usr/bin/env bash
# vet-bench.sh: time `go vet -vettool=jitlint` against plain `go vet` on the
# same packages, each run with an empty GOCACHE, alternating the two so that
# machine load hits both alike. Prints each run and the median ratio.
#
# Two modes: "empty" times go vet on an empty GOCACHE (go vet then also
# compiles every dependency, the same work for both); "built" first runs
# go build on the same empty GOCACHE, untimed, so that the timed go vet only
# runs the vet tool on each package (vet results are not cached by go build).
#
# Usage (from the module root):  bench/analyzers/vet-bench.sh [runs] [packages...]
#   runs      number of runs of each (default 3)
#   packages  go package patterns (default ./examples/codelab)
#   MODES     environment: the modes to run (default "empty built")
set -euo pipefail

runs=${1:-3}
shift || true
pkgs=("${@:-./examples/codelab}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/jitlint" ./cmd/jitlint

# seconds MODE CMD...: wall time of CMD with a fresh GOCACHE (after an
# untimed go build in mode "built"); vet findings do not count as failure.
seconds() {
	local mode=$1 cache
	shift
	cache=$(mktemp -d "$work/cache.XXXX")
	if [ "$mode" = built ]; then GOCACHE=$cache go build "${pkgs[@]}"; fi
	local start end
	start=$(date +%s.%N)
	GOCACHE=$cache "$@" >/dev/null 2>"$work/stderr" || {
		if grep -q "^# \|: " "$work/stderr"; then :; else cat "$work/stderr" >&2; exit 1; fi
	}
	end=$(date +%s.%N)
	rm -rf "$cache"
	echo "$end - $start" | bc
}

echo "packages: ${pkgs[*]}; $runs runs each; $(nproc) CPUs; $(go version)"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for mode in ${MODES:-empty built}; do
	plain=() tool=()
	for i in $(seq "$runs"); do
		p=$(seconds $mode go vet "${pkgs[@]}")
		t=$(seconds $mode go vet -vettool="$work/jitlint" "${pkgs[@]}")
		plain+=("$p") tool+=("$t")
		printf '%s run %d: go vet %6.2fs   go vet -vettool=jitlint %6.2fs   ratio %.2f\n' "$mode" "$i" "$p" "$t" "$(echo "$t / $p" | bc -l)"
	done
	mp=$(median "${plain[@]}") mt=$(median "${tool[@]}")
	printf '%s median: go vet %.2fs   go vet -vettool=jitlint %.2fs   ratio %.2f\n' "$mode" "$mp" "$mt" "$(echo "$mt / $mp" | bc -l)"
done
