#!/usr/bin/env bash
# Runs the CPU backend benchmarks (jit/cpu/bench_test.go) and prints the
# ratios recorded in bench/RESULTS.md ("CPU backend (issue 5)" and
# "Vectorized f32 math (issue 16)", whose second table bench/cpu/kernels.sh
# gives). Each round runs every jit benchmark right next to its
# hand-written counterpart;
# rounds are repeated (ROUNDS, default 5) so that load drifting on a shared
# machine hits both alike. Ratios are given for wall time and for process
# CPU time (cpu-ns/op), which other processes disturb less.
# Usage: bench/cpu/run.sh   (from anywhere in the repository)
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "machine: $(lscpu | grep 'Model name' | sed 's/.*: *//'), $(nproc) CPUs, $(go version | cut -d' ' -f3)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
go test -c -o "$out.test" ./jit/cpu/
trap 'rm -f "$out" "$out.test"' EXIT
echo "command: $out.test -test.run '^\$' -test.bench '^Benchmark(Heavy|CheapChain)\$' -test.benchtime ${BENCHTIME:-5x}  (x ${ROUNDS:-5} rounds)"
echo "command: $out.test -test.run '^\$' -test.bench '^BenchmarkDispatch\$' -test.benchmem  (each round)"
for _ in $(seq "${ROUNDS:-5}"); do
	"$out.test" -test.run '^$' -test.bench '^Benchmark(Heavy|CheapChain)$' -test.benchtime "${BENCHTIME:-5x}" | grep '^Benchmark' | tee -a "$out"
	"$out.test" -test.run '^$' -test.bench '^BenchmarkDispatch$' -test.benchmem | grep '^Benchmark' | tee -a "$out"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
  function cpu(  i) { for (i = 4; i < NF; i++) if ($(i+1) == "cpu-ns/op") return $i; return 0 }
  { k = $1; sub(/-[0-9]+$/, "", k); wall[k] += $3; c = cpu(); cpun[k] += c; n[k]++
    if (!(k in best) || $3 < best[k]) best[k] = $3
    if (!(k in bestc) || c < bestc[k]) bestc[k] = c }
  function r(a, b, what) {
    if (!n[a] || !n[b]) return
    printf "%-34s mean wall %.2fx", what, (wall[a]/n[a]) / (wall[b]/n[b])
    if (cpun[b]) printf ", cpu %.2fx", (cpun[a]/n[a]) / (cpun[b]/n[b])
    printf "; best-of-rounds wall %.2fx", best[a] / best[b]
    if (bestc[b]) printf ", cpu %.2fx", bestc[a] / bestc[b]
    printf "\n"
  }
  END {
    r("BenchmarkHeavy/jit", "BenchmarkHeavy/handloop", "heavy jit / hand loop (<= 0.2x):")
    r("BenchmarkCheapChain/jit", "BenchmarkCheapChain/copyloop", "x*mask+1 jit / copy loop (<= 1.2x):")
    r("BenchmarkCheapChain/jit", "BenchmarkCheapChain/handloop", "x*mask+1 jit / hand loop:")
    for (k in wall) if (k ~ /Dispatch/) printf "%-44s mean %.0f ns/op (cpu %.0f), best-of-rounds %.0f ns/op (cpu %.0f)\n", k ":", wall[k]/n[k], cpun[k]/n[k], best[k], bestc[k]
  }' "$out"
