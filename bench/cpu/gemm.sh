#!/usr/bin/env bash
# Matrix products of the CPU backend against NumPy with OpenBLAS and gonum,
# side by side in one run (bench/gemm, a module of its own so that gonum
# stays out of jitlint's dependencies), then the micro-kernels' fraction of
# one core's FMA peak (BenchmarkMicroKernel in jit/cpu). Installs Debian's
# python3-numpy and libopenblas0-pthread first (apt, as root) when missing.
# Prints the tables recorded in bench/RESULTS.md ("Matrix products (issue
# 21)").
# Usage: bench/cpu/gemm.sh [-rounds N] [-quick]   (from anywhere in the repository)
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
if ! dpkg -s python3-numpy libopenblas0-pthread >/dev/null 2>&1; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-numpy libopenblas0-pthread >/dev/null
fi
# Older OpenBLAS builds need these on some processors; they slow a current
# one, so they are unset for this run (numpy_gemm.py prints the kernel used).
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
echo "commit: $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d)"
(cd bench/gemm && go run . "$@")
echo
echo "micro-kernels, one core, L1-resident panels (kc = 256), 3 runs:"
go test ./jit/cpu -run '^$' -bench '^BenchmarkMicroKernel$' -benchtime 200000x -count 3 | grep '^Benchmark'
