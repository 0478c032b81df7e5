package jit_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/jitlint/jitlint/jit"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

func closeTo(t *testing.T, what string, got []float32, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(float64(got[i]) - want[i]); d > tol*math.Max(1, math.Abs(want[i])) || math.IsNaN(float64(got[i])) != math.IsNaN(want[i]) {
			t.Fatalf("%s[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

func TestCondAndSwitchAgainstHost(t *testing.T) {
	f := jit.Jit(func(p, x jit.Array) jit.Array {
		return jit.Cond(p, func(v jit.Array) jit.Array { return v.Sin() }, func(v jit.Array) jit.Array { return v.Mul(v) }, x)
	})
	xs := []float64{-1, 0.5, 2}
	x := jit.FromSlice([]float32{-1, 0.5, 2})
	for _, pred := range []bool{true, false} {
		want := make([]float64, 3)
		for i, v := range xs {
			if pred {
				want[i] = math.Sin(v)
			} else {
				want[i] = v * v
			}
		}
		closeTo(t, "cond", f.Call(jit.Scalar(pred), x).Float32s(), want, 1e-6)
	}
	if f.Stats().Compiles != 1 {
		t.Errorf("cond compiled %d times for two predicate values, want 1", f.Stats().Compiles)
	}
	sw := jit.Jit(func(i, x jit.Array) jit.Array {
		return jit.Switch(i, []func(jit.Array) jit.Array{
			func(v jit.Array) jit.Array { return v.Add(10) },
			func(v jit.Array) jit.Array { return v.Add(20) },
			func(v jit.Array) jit.Array { return v.Add(30) },
		}, x)
	})
	for i, add := range map[int32]float64{-5: 10, 0: 10, 1: 20, 2: 30, 9: 30} {
		closeTo(t, "switch", sw.Call(jit.Scalar(i), x).Float32s(), []float64{add - 1, add + 0.5, add + 2}, 1e-6)
	}
	// Eager control flow (no jit) runs the same primitive.
	closeTo(t, "eager cond", jit.Cond(true, jit.Relu, jit.Softplus, x).Float32s(), []float64{0, 0.5, 2}, 0)
}

func TestScanAgainstHostLoop(t *testing.T) {
	// cumulative sum and a running product with two carries, forward and reverse
	data := []float32{1, 2, 3, 4, 5}
	type carry struct{ Sum, Prod jit.Array }
	f := func(reverse bool) func(x jit.Array) (carry, jit.Array) {
		return func(x jit.Array) (carry, jit.Array) {
			var opts []jit.ScanOption
			if reverse {
				opts = append(opts, jit.Reverse())
			}
			return jit.Scan(func(c carry, v jit.Array) (carry, jit.Array) {
				s := c.Sum.Add(v)
				return carry{s, c.Prod.Mul(v)}, s
			}, carry{jit.Scalar(float32(0)), jit.Scalar(float32(1))}, x, opts...)
		}
	}
	for _, rev := range []bool{false, true} {
		c, ys := jit.Jit(f(rev)).Call(jit.FromSlice(data)) //jitlint:ignore staticargs two closures over different flags, each compiled once on purpose
		want := make([]float64, len(data))
		s := 0.0
		for k := range data {
			i := k
			if rev {
				i = len(data) - 1 - k
			}
			s += float64(data[i])
			want[i] = s
		}
		closeTo(t, "scan ys", ys.Float32s(), want, 0)
		closeTo(t, "scan sum", c.Sum.Float32s(), []float64{15}, 0)
		closeTo(t, "scan prod", c.Prod.Float32s(), []float64{120}, 0)
	}
}

func TestScanNAndForiLoopAgainstHostLoop(t *testing.T) {
	step := func(y jit.Array) jit.Array { return y.Sin().Add(y.Mul(0.01)) }
	host := func(v float64, n int) float64 {
		for i := 0; i < n; i++ {
			v = float64(float32(math.Sin(v)) + float32(v)*0.01)
		}
		return v
	}
	x := jit.FromSlice([]float32{0.1, 1, 2})
	want := []float64{host(0.1, 50), host(1, 50), host(2, 50)}
	scan := jit.Jit(func(x jit.Array) jit.Array {
		y, _ := jit.ScanN(func(y jit.Array) (jit.Array, struct{}) { return step(y), struct{}{} }, x, 50)
		return y
	})
	closeTo(t, "ScanN", scan.Call(x).Float32s(), want, 1e-5)
	fori := jit.Jit(func(x jit.Array) jit.Array {
		return jit.ForiLoop(0, 50, func(i, y jit.Array) jit.Array { return step(y) }, x)
	})
	closeTo(t, "ForiLoop static", fori.Call(x).Float32s(), want, 1e-5)
	foriTraced := jit.Jit(func(n, x jit.Array) jit.Array {
		return jit.ForiLoop(0, n, func(i, y jit.Array) jit.Array { return step(y) }, x)
	})
	closeTo(t, "ForiLoop traced", foriTraced.Call(jit.Scalar(int32(50)), x).Float32s(), want, 1e-5)
	closeTo(t, "ForiLoop traced, 0 steps", foriTraced.Call(jit.Scalar(int32(0)), x).Float32s(), []float64{0.1, 1, 2}, 1e-7)
	// the index is passed to the body: sum of i for i in [3, 10)
	idx := jit.Jit(func(x jit.Array) jit.Array {
		return jit.ForiLoop(3, 10, func(i, acc jit.Array) jit.Array { return acc.Add(i.Astype(jit.Float32)) }, x)
	})
	closeTo(t, "ForiLoop index", idx.Call(jit.Zeros(jit.Float32, 1)).Float32s(), []float64{42}, 0)
}

func TestWhileLoopAgainstHostLoop(t *testing.T) {
	// Collatz steps for 27 (111), with a captured constant limit.
	limit := jit.Scalar(int32(1000))
	type carry struct{ N, Steps jit.Array }
	f := jit.Jit(func(n jit.Array) jit.Array {
		out := jit.WhileLoop(func(c carry) jit.Array { return c.N.Ne(1).And(c.Steps.Lt(limit)) },
			func(c carry) carry {
				even := c.N.Sub(c.N.Div(2).Floor().Astype(jit.Int32).Mul(2)).Eq(0)
				next := jit.Where(even, c.N.Div(2).Floor().Astype(jit.Int32), c.N.Mul(3).Add(1))
				return carry{next, c.Steps.Add(1)}
			}, carry{n, jit.Scalar(int32(0))})
		return out.Steps
	})
	host := func(n int) int {
		s := 0
		for n != 1 {
			if n%2 == 0 {
				n /= 2
			} else {
				n = 3*n + 1
			}
			s++
		}
		return s
	}
	for _, n := range []int{1, 6, 27, 97} {
		if got := f.Call(jit.Scalar(int32(n))).Int(); got != host(n) {
			t.Errorf("collatz(%d) = %d steps, want %d", n, got, host(n))
		}
	}
}

func TestNestedJitAndDebugPrint(t *testing.T) {
	inner := jit.Jit(func(x jit.Array) jit.Array { return x.Mul(3) })
	outer := jit.Jit(func(x jit.Array) jit.Array {
		jit.DebugPrint("x = %v", x)
		return inner.Call(x).Add(inner.Call(x.Add(1)))
	})
	var buf bytes.Buffer
	eval.SetPrintOutput(&buf)
	defer eval.SetPrintOutput(nil)
	closeTo(t, "nested jit", outer.Call(jit.FromSlice([]float32{1, 2})).Float32s(), []float64{9, 15}, 0)
	outer.Call(jit.FromSlice([]float32{5, 6}))
	if got := buf.String(); got != "x = [1. 2.]\nx = [5. 6.]\n" {
		t.Errorf("DebugPrint must print with the values on every call, got %q", got)
	}
	tr, err := outer.Trace(jit.Spec(jit.Float32, 2))
	if err != nil {
		t.Fatal(err)
	}
	var jits, prints int
	for _, e := range tr.Jaxpr().Eqns() {
		switch e.Prim {
		case "jit":
			jits++
		case "debug_print":
			prints++
		}
	}
	if jits != 2 || prints != 1 {
		t.Errorf("want 2 jit equations and 1 debug_print, got %d and %d:\n%s", jits, prints, tr.Jaxpr())
	}
}

// TestDebugPrintOutsideTrace: outside traced code DebugPrint prints at once,
// Arrays numpy-style and Go numbers as weakly typed scalars, where the staged
// equation would print; inside a trace a print of only Go numbers is staged.
func TestDebugPrintOutsideTrace(t *testing.T) {
	var buf bytes.Buffer
	eval.SetPrintOutput(&buf)
	defer eval.SetPrintOutput(nil)
	jit.DebugPrint("x = %v, n = %v", jit.FromSlice([]float32{1, 2.5}), 3)
	jit.DebugPrint("done\n")
	if got, want := buf.String(), "x = [1.  2.5], n = 3\ndone\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
	buf.Reset()
	f := jit.Jit(func(x jit.Array) jit.Array {
		jit.DebugPrint("n = %v", 7)
		return x
	})
	f.Call(jit.FromSlice([]float32{1}))
	f.Call(jit.FromSlice([]float32{2}))
	if got, want := buf.String(), "n = 7\nn = 7\n"; got != want {
		t.Errorf("a print of Go numbers in traced code printed %q over two calls, want %q (staged, once per run)", got, want)
	}
}
