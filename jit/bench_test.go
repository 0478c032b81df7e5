package jit_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/jitlint/jitlint/jit"
)

// BenchmarkTracePerEquation traces a function of 1000 elementwise equations;
// ns/op divided by 1000 is the trace cost per equation.
func BenchmarkTracePerEquation(b *testing.B) {
	fn := func(x jit.Array) jit.Array {
		for i := 0; i < 500; i++ { //jitlint:ignore unrolledloop the benchmark measures the trace cost of 1000 equations
			x = x.Sin().Mul(0.5)
		}
		return x
	}
	spec := jit.Spec(jit.Float32, 8)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jit.MakeJaxpr(fn)(spec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/eqn")
}

// BenchmarkCachedCall1Element measures the dispatch overhead of a cached call
// on a 1-element input (func(Array) Array fast path and the reflect path).
func BenchmarkCachedCall1Element(b *testing.B) {
	x := jit.Zeros(jit.Float32, 1)
	b.Run("func(Array)Array", func(b *testing.B) {
		f := jit.Jit(func(x jit.Array) jit.Array { return x.Add(1) })
		f.Call(x)
		b.ReportAllocs()
		for b.Loop() {
			f.Call(x)
		}
	})
	b.Run("func(Array)Array,events", func(b *testing.B) {
		// With JITLINT_EVENTS on, every call is counted at its call site.
		if err := jit.SetEventsFile(filepath.Join(b.TempDir(), "events.jsonl")); err != nil {
			b.Fatal(err)
		}
		defer jit.SetEventsFile("")
		f := jit.Jit(func(x jit.Array) jit.Array { return x.Add(1) })
		f.Call(x)
		b.ReportAllocs()
		for b.Loop() {
			f.Call(x)
		}
	})
	b.Run("func(Array,Array)Array", func(b *testing.B) {
		f := jit.Jit(func(x, y jit.Array) jit.Array { return x.Add(y) })
		f.Call(x, x)
		b.ReportAllocs()
		for b.Loop() {
			f.Call(x, x)
		}
	})
}

// BenchmarkUnrolledVsScan times trace + lower + compile (first call,
// ClearCaches between iterations) of the codelab's loop body
// y = sin(y) + 0.01*y, unrolled by a Go loop versus one ScanN equation.
func BenchmarkUnrolledVsScan(b *testing.B) {
	unrolled := func(steps int, x jit.Array) jit.Array {
		for i := 0; i < steps; i++ {
			x = x.Sin().Add(x.Mul(0.01))
		}
		return x
	}
	scan := func(steps int, x jit.Array) jit.Array {
		y, _ := jit.ScanN(func(y jit.Array) (jit.Array, struct{}) { return y.Sin().Add(y.Mul(0.01)), struct{}{} }, x, steps)
		return y
	}
	spec := jit.Spec(jit.Float32, 1024)
	for _, steps := range []int{200, 2000} {
		for _, v := range []struct {
			name string
			fn   func(int, jit.Array) jit.Array
		}{{"unrolled", unrolled}, {"scan", scan}} {
			b.Run(fmt.Sprintf("%s/%d", v.name, steps), func(b *testing.B) {
				f := jit.Jit(v.fn, jit.StaticArgnums(0))
				for b.Loop() {
					low, err := f.Lower(steps, spec)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := low.Compile(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
