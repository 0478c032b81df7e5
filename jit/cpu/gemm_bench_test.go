package cpu

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/jitlint/jitlint/jit/ir"
)

// BenchmarkMicroKernel times the micro-kernels this CPU runs (the chosen
// ones, and the AVX2 ones on AVX-512 machines; the Go ones with the purego
// tag) alone on one core, on L1-resident panels (kc = the products' kc),
// in process CPU time (which a loaded machine's preemptions do not
// inflate), and reports GFLOP/s and the fraction of the core's FMA peak
// for the kernel's vector width.
//
// The peak is measured, not assumed: fmaLoop runs independent FMAs of the
// kernel's width (16 ZMM or 12 YMM accumulators, more than latency ×
// units on any core measured), timed in the same way; peak-fraction is
// the kernel's vector FMAs per second over the loop's. That counts the
// FMA units a core really has for that width (one or two 512-bit ones on
// Intel's AVX-512 cores, two 256-bit ones on Zen 2/3 and Intel since
// Haswell) and runs at the clock that width runs at (AVX-512 code may run
// at a lower one). fma/cycle reports the loop's FMAs per cycle of the
// clock that nsPerCycle's chain of dependent multiplies measures (GHz): 2
// for two units, less when the FMAs run at a lower clock.
func BenchmarkMicroKernel(b *testing.B) {
	ns := nsPerCycle()
	sets := hostKernelSets()
	if len(sets) == 0 {
		sets = []kernelSet{{"go", goKernelF32, goKernelF64}}
	}
	for _, s := range sets {
		b.Run("f32/"+s.f32.name, func(b *testing.B) { benchMicro(b, s.f32, ns, blockingF32.kc) })
		b.Run("f64/"+s.f64.name, func(b *testing.B) { benchMicro(b, s.f64, ns, blockingF64.kc) })
	}
}

// benchMicro measures one kernel.
func benchMicro[T float32 | float64](b *testing.B, k microKernel[T], nsPerCycle float64, kc int) {
	a, bp, c := make([]T, kc*k.mr), make([]T, kc*k.nr), make([]T, k.mr*k.nr)
	for i := range a {
		a[i] = T(i%7) * 0.25
	}
	for i := range bp {
		bp[i] = T(i%5) * 0.5
	}
	b.ResetTimer()
	c0 := processCPUTime()
	for i := 0; i < b.N; i++ {
		k.run(kc, a, bp, c, k.nr, true)
	}
	cpu := float64(processCPUTime() - c0)
	b.StopTimer()
	flops := float64(2*kc*k.mr*k.nr) * float64(b.N)
	b.ReportMetric(flops/cpu, "GFLOP/s")
	b.ReportMetric(1/nsPerCycle, "GHz")
	loop, per := fmaLoop(k.vecBits)
	if loop == nil {
		return
	}
	lanes := k.vecBits / 8 / int(unsafe.Sizeof(T(0)))
	kernelFMAs := flops / 2 / float64(lanes) / cpu // per ns
	peak := fmaRate(loop, per)
	b.ReportMetric(kernelFMAs/peak, "peak-fraction")
	b.ReportMetric(peak*nsPerCycle, "fma/cycle")
}

// fmaRate returns the vector FMAs per ns that loop (per FMAs an
// iteration) runs on one core: the best of three timings in process CPU
// time.
func fmaRate(loop func(n int), per int) float64 {
	const n = 20_000_000
	best := 0.0
	for range 3 {
		t := processCPUTime()
		loop(n)
		if r := float64(n*per) / float64(processCPUTime()-t); r > best {
			best = r
		}
	}
	return best
}

// BenchmarkMatmul times square products on the backend (all workers),
// reporting GFLOP/s of wall time and per second of CPU time (the
// efficiency per core, which other processes disturb less).
func BenchmarkMatmul(b *testing.B) {
	for _, dt := range []ir.DType{ir.Float32, ir.Float64} {
		for _, n := range []int{64, 256, 512, 1024} {
			b.Run(fmt.Sprintf("%s/%d", dt, n), func(b *testing.B) {
				cj := dotJaxpr([]int{n, n}, []int{n, n}, matmulDims, dt, dt)
				ex, _ := compileCJ(b, cj)
				x, y := arange(dt, n*n, 1e-3, 0), arange(dt, n*n, 1e-3, 1)
				x.Shape, y.Shape = []int{n, n}, []int{n, n}
				args := []*ir.Buffer{x, y}
				c0 := processCPUTime()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := ex.Execute(args); err != nil {
						b.Fatal(err)
					}
				}
				flops := 2 * float64(n*n*n) * float64(b.N)
				b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				// Per second of CPU time: a loaded machine's preemptions
				// do not lower it.
				b.ReportMetric(flops/float64(processCPUTime()-c0), "GFLOP/cpu-s")
			})
		}
	}
}
