#!/usr/bin/env bash
# gpu-check.sh — the one-call GPU check of the gpu backend (issue 6).
#
# The GPU machine (an NVIDIA H200 with JAX, Python 3.12, nvcc; no Go, no
# network) cannot build Go, so this script has two halves:
#
#   1. here, on a machine with Go:     scripts/gpu-check.sh build
#      builds static-enough (CGO_ENABLED=0, purego) binaries into bin/gpucheck/
#      (ignored by git): gpu.test (the gpu package's tests, whose Device* tests
#      run only where a GPU works), ptxsim.test, gpucheck (the codelab report
#      program, jit/gpu/cmd/gpucheck) and, if it builds, examples/codelab.
#
#   2. on the GPU machine, in one call of the session's device tool:
#        run(command="bash scripts/gpu-check.sh run", carry=["bin"], timeout_s=540)
#      (about 9 minutes at most: stages are limited to 120 + 150 + 200 + 60 s).
#      It runs the Device tests, the codelab functions through JAX
#      (bench/gpu/jax_codelab.py), and gpucheck with the JAX numbers, and
#      writes $OUT/gpu-check.md (the report: correctness against the CPU
#      reference evaluator, first-call and cached-call times, scan vs unrolled
#      at 200 and 2000 steps, the shape-recompile loop, a JAX side-by-side
#      table, then the test log) plus $OUT/jax.json and logs.
#      Commit the report as bench/gpu-<date>.md.
#
# Each stage has its own time limit, so a hang in one still returns the rest.
# Locally, "scripts/gpu-check.sh run" without a GPU gives a report whose
# Device tests are skipped and a gpucheck failure naming the reason.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=bin/gpucheck

case "${1:-}" in
build)
	set -e
	mkdir -p "$BIN"
	export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
	go test -c -o "$BIN/gpu.test" ./jit/gpu
	go test -c -o "$BIN/ptxsim.test" ./jit/gpu/internal/ptxsim
	go build -o "$BIN/gpucheck" ./jit/gpu/cmd/gpucheck
	# The Go port of the codelab through package jit (which uses the gpu
	# backend by default once it imports it); optional.
	go build -o "$BIN/codelab" ./examples/codelab || echo "examples/codelab does not build; skipped"
	ls -la "$BIN"
	du -sh "$BIN"
	echo "now run on the GPU machine: bash scripts/gpu-check.sh run   (carry: bin)"
	;;
run)
	OUT=${OUT:-$(mktemp -d)}
	REPORT=$OUT/gpu-check.md
	for f in gpu.test ptxsim.test gpucheck; do
		[ -x "$BIN/$f" ] || { echo "missing $BIN/$f: run 'scripts/gpu-check.sh build' first and carry bin" | tee "$REPORT"; exit 2; }
	done
	# The driver is usually in the loader's cache; containers sometimes keep
	# it under /usr/local/nvidia.
	if ! ldconfig -p 2>/dev/null | grep -q 'libcuda.so.1 '; then
		for d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/cuda/compat; do
			[ -e "$d/libcuda.so.1" ] && export JITLINT_LIBCUDA="$d/libcuda.so.1" && break
		done
	fi
	{
		echo "libcuda: ${JITLINT_LIBCUDA:-libcuda.so.1 (loader search)}"
		echo "machine: $(uname -srm); $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
		echo "python: $(python3 --version 2>&1)"
	} >"$OUT/env.txt"
	# 1. Tests: the Device tests run the codelab and random jaxprs on the GPU.
	(cd jit/gpu && timeout 120 "../../$BIN/gpu.test" -test.v -test.run 'Device|ULP|Fallback|Missing|NotADriver' -test.timeout 115s) >"$OUT/gpu-test.log" 2>&1
	echo "gpu.test exit $?" >>"$OUT/gpu-test.log"
	# 2. JAX side (its own process; results in jax.json).
	PYTHONUNBUFFERED=1 timeout 150 python3 bench/gpu/jax_codelab.py "$OUT/jax.json" >"$OUT/jax.log" 2>&1
	echo "jax_codelab.py exit $?" >>"$OUT/jax.log"
	# 3. Our backend: the report program (it writes as it goes, so a timeout
	# in the last table, the 2000-step unrolled JIT, keeps the rest).
	JAXARG=()
	[ -s "$OUT/jax.json" ] && JAXARG=(-jax "$OUT/jax.json")
	timeout 200 "$BIN/gpucheck" "${JAXARG[@]}" -o "$OUT/gpucheck.md" >"$OUT/gpucheck.log" 2>&1
	echo "gpucheck exit $?" >>"$OUT/gpucheck.log"
	# 4. The codelab example end to end (jit picks its default backend).
	if [ -x "$BIN/codelab" ]; then
		timeout 60 "$BIN/codelab" >"$OUT/codelab.log" 2>&1
		echo "codelab exit $?" >>"$OUT/codelab.log"
	fi
	{
		cat "$OUT/gpucheck.md" 2>/dev/null
		echo
		echo "## Environment"
		echo
		sed 's/^/    /' "$OUT/env.txt"
		echo
		echo "## Device tests (gpu.test -test.run 'Device|ULP|Fallback|Missing|NotADriver')"
		echo
		grep -E '^(=== RUN|--- |    |PASS|FAIL|ok|gpu.test exit)' "$OUT/gpu-test.log" | grep -v '^=== RUN' | sed 's/^/    /' | tail -150
		echo
		if [ -s "$OUT/codelab.log" ]; then
			echo "## examples/codelab (package jit, default backend)"
			echo
			head -120 "$OUT/codelab.log" | sed 's/^/    /'
			echo
		fi
		echo "## gpucheck and JAX logs (tails)"
		echo
		tail -20 "$OUT/gpucheck.log" | sed 's/^/    /'
		echo
		tail -30 "$OUT/jax.log" | sed 's/^/    /'
	} >"$REPORT"
	echo "report: $REPORT"
	;;
*)
	echo "usage: $0 build|run   (see the header of this script)" >&2
	exit 2
	;;
esac
