#!/usr/bin/env bash
# Measures the float32 math kernels of jit/cpu (f32math.go, f32math_amd64.s)
# against the limit of issue 16 and prints the table recorded in
# bench/RESULTS.md ("Vectorized f32 math (issue 16)"): cycles per element on
# one L1-resident block (BenchmarkF32Kernels, cycles counted by a chain of
# dependent multiplies timed in the same run), the instructions of each
# kernel's loop (eight lanes per iteration, counted in the generated
# assembly), and the ratio to the limit: one 8-lane f32 polynomial
# evaluation of 25 vector instructions (50 for pow, a log and an exp) per 8
# elements at one instruction per cycle. Rounds (ROUNDS, default 5) are
# repeated; the table gives the median and the best round.
# Usage: bench/cpu/kernels.sh   (from anywhere in the repository)
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
bin=$(mktemp)
out=$(mktemp)
trap 'rm -f "$bin" "$out"' EXIT
echo "machine: $(lscpu | grep 'Model name' | sed 's/.*: *//'), $(nproc) CPUs, $(go version | cut -d' ' -f3)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
go test -c -o "$bin" ./jit/cpu/
echo "command: $bin -test.run '^\$' -test.bench '^BenchmarkF32Kernels\$' -test.benchtime ${BENCHTIME:-20000x}  (x ${ROUNDS:-5} rounds)"
(cd jit/cpu && "$bin" -test.run '^TestKernelInstructionCounts$' -test.v) | grep 'instructions per' | sed 's/.*: //' | awk '{print "I", $1, $2}' >"$out"
for _ in $(seq "${ROUNDS:-5}"); do
	"$bin" -test.run '^$' -test.bench '^BenchmarkF32Kernels$' -test.benchtime "${BENCHTIME:-20000x}" | grep '^Benchmark' |
		sed 's#BenchmarkF32Kernels/##; s#-[0-9]* # #' | awk '{print "C", $1, $5; if ($7) print "N", "clock", $7}' >>"$out"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| kernel | instructions / loop iteration (8 lanes) | cycles/element, median (best) | limit cycles/element | ratio median (best) |"
echo "|---|---|---|---|---|"
sort -k2,2 -k3,3g "$out" | awk '
  $1 == "I" { ins[$2] = $3; next }
  $1 == "N" { clk += $3; nclk++; next }
  { v[$2, ++n[$2]] = $3 }
  END {
    if (nclk) printf "| (clock from the multiply chain: %.2f GHz mean) | | | | |\n", nclk / clk
    for (k in ins) {
      m = n[k]; if (!m) continue
      med = (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
      lim = (k == "pow") ? 50 / 8 : 25 / 8
      if (k == "sqrt" || k == "rsqrt") lim = 0
      if (lim) printf "| %s | %d | %.2f (%.2f) | %.3f | %.2fx (%.2fx) |\n", k, ins[k], med, v[k, 1], lim, med / lim, v[k, 1] / lim
      else printf "| %s | %d | %.2f (%.2f) | — | — |\n", k, ins[k], med, v[k, 1]
    }
  }' | sort
