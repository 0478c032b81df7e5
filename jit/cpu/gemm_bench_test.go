package cpu

import (
	"fmt"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// BenchmarkMicroKernel times the chosen micro-kernels alone on one core,
// on L1-resident panels (kc = 256, the products' kc), and reports
// GFLOP/s: the number bench/RESULTS.md compares with the core's FMA peak.
func BenchmarkMicroKernel(b *testing.B) {
	b.Run("f32/"+kernelF32.name, func(b *testing.B) { benchMicro(b, kernelF32) })
	b.Run("f64/"+kernelF64.name, func(b *testing.B) { benchMicro(b, kernelF64) })
}

func benchMicro[T float32 | float64](b *testing.B, k microKernel[T]) {
	const kc = 256
	a, bp, c := make([]T, kc*k.mr), make([]T, kc*k.nr), make([]T, k.mr*k.nr)
	for i := range a {
		a[i] = T(i%7) * 0.25
	}
	for i := range bp {
		bp[i] = T(i%5) * 0.5
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k.run(kc, a, bp, c, k.nr, true)
	}
	b.ReportMetric(float64(2*kc*k.mr*k.nr)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkMatmul times square products on the backend (all workers).
func BenchmarkMatmul(b *testing.B) {
	for _, dt := range []ir.DType{ir.Float32, ir.Float64} {
		for _, n := range []int{64, 256, 512, 1024} {
			b.Run(fmt.Sprintf("%s/%d", dt, n), func(b *testing.B) {
				cj := dotJaxpr([]int{n, n}, []int{n, n}, matmulDims, dt, dt)
				ex, _ := compileCJ(b, cj)
				x, y := arange(dt, n*n, 1e-3, 0), arange(dt, n*n, 1e-3, 1)
				x.Shape, y.Shape = []int{n, n}, []int{n, n}
				args := []*ir.Buffer{x, y}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := ex.Execute(args); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
