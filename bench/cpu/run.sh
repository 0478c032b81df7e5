#!/usr/bin/env bash
# Runs the CPU backend benchmarks (jit/cpu/bench_test.go) side by side and
# prints the ratios recorded in bench/RESULTS.md ("CPU backend (issue 5)").
# Usage: bench/cpu/run.sh [extra go test flags]   (from anywhere in the repo)
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "machine: $(lscpu | grep 'Model name' | sed 's/.*: *//'), $(nproc) CPUs, $(go version | cut -d' ' -f3)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
cmd=(go test -run '^$' -bench '^Benchmark(Heavy|CheapChain|Dispatch)$' -benchtime "${BENCHTIME:-5x}" -count "${COUNT:-5}" "$@" ./jit/cpu/)
echo "command: ${cmd[*]}"
"${cmd[@]}" | tee "$out"
go test -run '^$' -bench '^BenchmarkDispatch$' -benchmem ./jit/cpu/ | grep '^Benchmark' | tee -a "$out"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# Ratios of the jit run to its hand-written counterpart (mean over -count runs).
awk '
  /^BenchmarkHeavy\/jit/            { hj += $3; nhj++ }
  /^BenchmarkHeavy\/handloop/       { hh += $3; nhh++ }
  /^BenchmarkCheapChain\/jit/       { cj += $3; ncj++ }
  /^BenchmarkCheapChain\/copyloop/  { cc += $3; ncc++ }
  /^BenchmarkCheapChain\/handloop/  { ch += $3; nch++ }
  END {
    if (nhj && nhh) printf "heavy(arange(1M)) jit / hand loop: %.2fx (goal <= 1.3x)\n", (hj/nhj)/(hh/nhh)
    if (ncj && ncc) printf "x*mask+1 on 16M jit / copy loop: %.2fx (goal <= 1.5x)\n", (cj/ncj)/(cc/ncc)
    if (ncj && nch) printf "x*mask+1 on 16M jit / hand loop: %.2fx\n", (cj/ncj)/(ch/nch)
  }' "$out"
