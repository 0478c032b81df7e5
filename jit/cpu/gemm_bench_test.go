package cpu

import (
	"fmt"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// BenchmarkMicroKernel times the chosen micro-kernels alone on one core,
// on L1-resident panels (kc = 256, the products' kc), in process CPU time
// (which a loaded machine's preemptions do not inflate), and reports
// GFLOP/s and the fraction of the core's FMA peak: cycles are counted by
// nsPerCycle's chain of dependent multiplies timed in the same run, and the
// peak is two vector FMAs per cycle (the two FMA pipes of Zen 2/3/4 and of
// Intel cores since Haswell), so a k step of an mr×nr tile of lanes-wide
// registers takes at least mr·nr/lanes/2 cycles.
func BenchmarkMicroKernel(b *testing.B) {
	ns := nsPerCycle()
	b.Run("f32/"+kernelF32.name, func(b *testing.B) { benchMicro(b, kernelF32, ns, 8) })
	b.Run("f64/"+kernelF64.name, func(b *testing.B) { benchMicro(b, kernelF64, ns, 4) })
}

// benchMicro measures one kernel whose FMAs are lanes wide (per 256 bits;
// an AVX-512 FMA counts as two).
func benchMicro[T float32 | float64](b *testing.B, k microKernel[T], nsPerCycle float64, lanes int) {
	const kc = 256
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
	flops := float64(2*kc*k.mr*k.nr) * float64(b.N)
	cycles := cpu / nsPerCycle
	peak := float64(2 * 2 * lanes) // flops per cycle: two FMA pipes
	b.ReportMetric(flops/cpu, "GFLOP/s")
	b.ReportMetric(flops/cycles/peak, "peak-fraction")
	b.ReportMetric(1/nsPerCycle, "GHz")
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
