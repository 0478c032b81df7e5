package cpu

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// Benchmarks for bench/RESULTS.md (run with bench/cpu/run.sh). Each pairs a
// cached call of a compiled jaxpr with a hand-written Go loop doing the
// same work on the same number of goroutines.

// measure runs f b.N times and also reports the process CPU time per run
// (cpu-ns/op), which a shared, loaded machine disturbs less than wall time.
func measure(b *testing.B, f func()) {
	b.ResetTimer()
	c0 := processCPUTime()
	for i := 0; i < b.N; i++ {
		f()
	}
	b.ReportMetric(float64(processCPUTime()-c0)/float64(b.N), "cpu-ns/op")
}

// parallelRange runs f over [0, n) split into GOMAXPROCS contiguous chunks.
func parallelRange(n int, f func(lo, hi int)) {
	w := workers()
	per := (n + w - 1) / w
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += per {
		hi := min(n, lo+per)
		wg.Add(1)
		go func() { defer wg.Done(); f(lo, hi) }()
	}
	wg.Wait()
}

// heavyLoop is the hand-written heavy: 20 × y = sin(y)*cos(y) + tanh(y) in
// f32 (each operation rounded to float32, as the jaxpr specifies).
func heavyLoop(dst, x []float32) {
	parallelRange(len(x), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			y := x[i]
			for k := 0; k < 20; k++ {
				s := float32(math.Sin(float64(y)))
				c := float32(math.Cos(float64(y)))
				t := float32(math.Tanh(float64(y)))
				y = s*c + t
			}
			dst[i] = y
		}
	})
}

func BenchmarkHeavy(b *testing.B) {
	const n = 1_000_000
	x := arange(ir.Float32, n, 1, 0)
	ex, _ := compileCJ(b, heavyJaxpr(n))
	ex.Execute([]*ir.Buffer{x}) // warm: the state's frames and the worker pool
	b.Run("jit", func(b *testing.B) {
		b.ReportAllocs()
		measure(b, func() {
			if _, err := ex.Execute([]*ir.Buffer{x}); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("handloop", func(b *testing.B) {
		measure(b, func() {
			out := make([]float32, n)
			heavyLoop(out, x.Data.([]float32))
		})
	})
}

// cheapJaxpr is x*mask + 1 on f32[n].
func cheapJaxpr(n int) *ir.ClosedJaxpr {
	var b ir.Builder
	a := av(ir.Float32, n)
	x, m := b.Input(a), b.Input(a)
	xm := b.Op(ir.Mul, nil, a, x, m)
	return b.Done("", b.Op(ir.Add, nil, a, xm, lit(ir.Float32, 1)))
}

func BenchmarkCheapChain(b *testing.B) {
	const n = 16 << 20
	x := arange(ir.Float32, n, 1, 0)
	m := testInput(ir.Float32, n, 0)
	ex, _ := compileCJ(b, cheapJaxpr(n))
	ex.Execute([]*ir.Buffer{x, m}) // warm: the state's frames and the worker pool
	xs, ms := x.Data.([]float32), m.Data.([]float32)
	b.Run("jit", func(b *testing.B) {
		b.SetBytes(3 * 4 * n)
		measure(b, func() {
			if _, err := ex.Execute([]*ir.Buffer{x, m}); err != nil {
				b.Fatal(err)
			}
		})
	})
	// The same bytes moved by hand: read x and mask, write a fresh output.
	b.Run("copyloop", func(b *testing.B) {
		b.SetBytes(3 * 4 * n)
		measure(b, func() {
			out := make([]float32, n)
			parallelRange(n, func(lo, hi int) {
				copy(out[lo:hi], xs[lo:hi])
				for j := lo; j < hi; j++ {
					out[j] += ms[j]
				}
			})
		})
	})
	b.Run("handloop", func(b *testing.B) {
		b.SetBytes(3 * 4 * n)
		measure(b, func() {
			out := make([]float32, n)
			parallelRange(n, func(lo, hi int) {
				for j := lo; j < hi; j++ {
					out[j] = xs[j]*ms[j] + 1
				}
			})
		})
	})
}

func BenchmarkDispatch(b *testing.B) {
	// The floor: allocating the one output and the result slice.
	b.Run("output-alloc-only", func(b *testing.B) {
		b.ReportAllocs()
		measure(b, func() { resultSink = []*ir.Buffer{ir.NewBuffer(ir.Float32, []int{1})} })
	})
	for _, n := range []int{1, 4} {
		x := arange(ir.Float32, n, 1, 0)
		m := arange(ir.Float32, n, 1, 1)
		ex, _ := compileCJ(b, cheapJaxpr(n))
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			args := []*ir.Buffer{x, m}
			measure(b, func() {
				if _, err := ex.Execute(args); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkBlockSize measures heavy and the cheap chain at several block
// sizes (the chosen blockSize is the fastest overall).
func BenchmarkBlockSize(b *testing.B) {
	old := blockSize
	defer func() { blockSize = old }()
	const nh, nc = 200_000, 4 << 20
	xh := arange(ir.Float32, nh, 1, 0)
	xc, mc := arange(ir.Float32, nc, 1, 0), testInput(ir.Float32, nc, 0)
	for _, bs := range []int{256, 512, 1024, 2048, 4096, 8192, 16384} {
		blockSize = bs
		exh, _ := compileCJ(b, heavyJaxpr(nh))
		exc, _ := compileCJ(b, cheapJaxpr(nc))
		b.Run(fmt.Sprintf("heavy/block=%d", bs), func(b *testing.B) {
			measure(b, func() { exh.Execute([]*ir.Buffer{xh}) })
		})
		b.Run(fmt.Sprintf("cheap4M/block=%d", bs), func(b *testing.B) {
			measure(b, func() { exc.Execute([]*ir.Buffer{xc, mc}) })
		})
	}
}
