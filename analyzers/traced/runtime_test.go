package traced_test

//jitlint:file-ignore staticargs,traceeffect,unrolledloop the oracle runs each of these findings for real, on purpose

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/jitlint/jitlint/jit"
)

// The runtime is the oracle: TestRuntimeSemantics runs, on the real jit
// package, one small program per rule that the analyzers assume, so that a
// change of the runtime that breaks a rule fails here (the analyzers'
// fixtures under testdata/src encode the same rules).

// traceErr calls f on a three-element array through jit.Jit and returns
// the *jit.Error kind it panics with (0 when it does not).
func traceErr(t *testing.T, f func(jit.Array) jit.Array) (kind jit.ErrorKind) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			var e *jit.Error
			if err, ok := p.(error); ok && errors.As(err, &e) {
				kind = e.Kind
				return
			}
			t.Fatalf("non-jit panic: %v", p)
		}
	}()
	jit.Jit(f).Call(jit.FromSlice([]float32{1, 2, 3}))
	return 0
}

var global = jit.FromSlice([]float32{1, 2, 3})
var globalScalar = jit.FromSlice([]float32{2})

func TestRuntimeSemantics(t *testing.T) {
	t.Run("omnistaging: operations on captured, global and constant arrays are traced", func(t *testing.T) {
		for name, f := range map[string]func(jit.Array) jit.Array{
			"global.Sum().Item()":       func(x jit.Array) jit.Array { return x.Mul(global.Sum().Item()) },
			"Arange(3).Sum().Item()":    func(x jit.Array) jit.Array { return x.Mul(jit.Arange(3, jit.Float32).Sum().Item()) },
			"Arange(1).Item()":          func(x jit.Array) jit.Array { return x.Mul(jit.Arange(1, jit.Float32).Item()) },
			"Full(1, f32, 1).Item()":    func(x jit.Array) jit.Array { return x.Mul(jit.Full(1, jit.Float32, 1).Item()) },
			"globalScalar.Mul(2).Int()": func(x jit.Array) jit.Array { return x.Mul(globalScalar.Mul(2).Int()) },
		} {
			if k := traceErr(t, f); k != jit.Concretization {
				t.Errorf("%s in traced code: error kind %v, want %v", name, k, jit.Concretization)
			}
		}
	})
	t.Run("concrete constructors and arrays read without an operation stay concrete", func(t *testing.T) {
		for name, f := range map[string]func(jit.Array) jit.Array{
			"Scalar(2.0).Item()":        func(x jit.Array) jit.Array { return x.Mul(jit.Scalar(2.0).Item()) },
			"FromSlice(...).Float32s()": func(x jit.Array) jit.Array { return x.Mul(float64(jit.FromSlice([]float32{1}).Float32s()[0])) },
			"Full(1, f32).Item()":       func(x jit.Array) jit.Array { return x.Mul(jit.Full(1, jit.Float32).Item()) },
			"Zeros(f32).Item()":         func(x jit.Array) jit.Array { return x.Mul(jit.Zeros(jit.Float32).Item()) },
			"Ones(f32).Item()":          func(x jit.Array) jit.Array { return x.Mul(jit.Ones(jit.Float32).Item()) },
			"globalScalar.Item()":       func(x jit.Array) jit.Array { return x.Mul(globalScalar.Item()) },
		} {
			if k := traceErr(t, f); k != 0 {
				t.Errorf("%s in traced code: error %v, want none", name, k)
			}
		}
	})
	t.Run("code guarded by IsTracer does not run while tracing", func(t *testing.T) {
		ran := 0
		f := jit.Jit(func(x jit.Array) jit.Array {
			if !x.IsTracer() {
				ran++
			}
			if x.IsTracer() {
				return x.Sin()
			}
			ran++
			return x
		})
		f.Call(global)
		if ran != 0 {
			t.Errorf("guarded code ran %d times while tracing", ran)
		}
	})
	t.Run("staging through a call unrolls like staging in the loop body", func(t *testing.T) {
		cell := func(x jit.Array) jit.Array { return x.Sin().Add(x.Mul(0.01)) }
		f := jit.Jit(func(x jit.Array) jit.Array {
			for range 100 {
				x = cell(x)
			}
			return x
		})
		tr, err := f.Trace(global)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(tr.Jaxpr().Eqns()); n != 300 {
			t.Errorf("100 iterations of 3 operations through a call: %d equations, want 300", n)
		}
	})
	t.Run("ranging over a slice of arrays unrolls once per element", func(t *testing.T) {
		f := jit.Jit(func(h jit.Array, xs []jit.Array) jit.Array {
			for _, x := range xs {
				h = h.Add(x).Tanh()
			}
			return h
		})
		xs := make([]jit.Array, 50)
		for i := range xs {
			xs[i] = global
		}
		tr, err := f.Trace(global, xs)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(tr.Jaxpr().Eqns()); n != 100 {
			t.Errorf("50 elements of 2 operations: %d equations, want 100", n)
		}
	})
	t.Run("static struct fields: one compile per distinct value", func(t *testing.T) {
		type cfg struct {
			W     jit.Array
			Step  int  `jit:"static"`
			Train bool `jit:"static"`
		}
		f := jit.Jit(func(c cfg, x jit.Array) jit.Array { return x.Mul(c.Step).Add(c.W) })
		for step := range 5 {
			f.Call(cfg{W: global, Step: step}, global)
		}
		if got := f.Stats().Compiles; got != 5 {
			t.Errorf("static field set to the loop counter, 5 calls: %d compiles, want 5", got)
		}
		g := jit.Jit(func(c cfg, x jit.Array) jit.Array { return x.Add(c.W) })
		for step := range 20 {
			g.Call(cfg{W: global, Train: step%2 == 0}, global)
		}
		if got := g.Stats().Compiles; got != 2 {
			t.Errorf("alternating static flag, 20 calls: %d compiles, want 2", got)
		}
	})
	t.Run("options passed as a slice are read", func(t *testing.T) {
		opts := []jit.Option{jit.StaticArgnums(0)}
		f := jit.Jit(func(n int, x jit.Array) jit.Array { return x.Mul(n) }, opts...)
		for range 3 {
			f.Call(3, global)
		}
		if s := f.Stats(); s.Compiles != 1 || s.Hits != 2 {
			t.Errorf("static argument from an options slice: %+v, want 1 compile and 2 hits", s)
		}
	})
	t.Run("windows and short last batches: bounded shapes", func(t *testing.T) {
		series := jit.Arange(100, jit.Float32)
		f := jit.Jit(func(x jit.Array) jit.Array { return x.Sum() })
		for off := 0; off+10 <= 100; off += 7 {
			f.Call(series.Slice([]int{off}, []int{off + 10}))
		}
		if got := f.Stats().Compiles; got != 1 {
			t.Errorf("window of width 10 at moving offsets: %d compiles, want 1", got)
		}
		g := jit.Jit(func(x jit.Array) jit.Array { return x.Sum() })
		for i := 0; i < 100; i += 32 {
			g.Call(series.Slice([]int{i}, []int{min(i+32, 100)}))
		}
		if got := g.Stats().Compiles; got != 2 {
			t.Errorf("batches of 32 over 100: %d compiles, want 2 (full and last)", got)
		}
		h := jit.Jit(func(x, mask jit.Array) jit.Array { return x.Mul(mask).Sum() })
		for _, n := range []int{3, 50, 70, 200, 10, 90} {
			size := 64
			if n > 64 {
				size = 256
			}
			p, m, err := jit.PadTo(series.Slice([]int{0}, []int{min(n, 100)}), size)
			if err != nil {
				t.Fatal(err)
			}
			h.Call(p, m)
		}
		if got := h.Stats().Compiles; got != 2 {
			t.Errorf("PadTo with 2 buckets, 6 lengths: %d compiles, want 2", got)
		}
	})
	t.Run("atomic updates and receiver writes happen once per trace", func(t *testing.T) {
		var n atomic.Int32
		m := &meter{}
		f := jit.Jit(func(x jit.Array) jit.Array { n.Add(1); return x.Add(1) })
		g := jit.Jit(m.step)
		for range 3 {
			f.Call(global)
			g.Call(global)
		}
		if n.Load() != 1 || m.steps != 1 {
			t.Errorf("3 calls: atomic counter %d, receiver field %d; want 1 and 1", n.Load(), m.steps)
		}
	})
}

type meter struct{ steps int }

func (m *meter) step(x jit.Array) jit.Array {
	m.steps++
	return x.Mul(2)
}
