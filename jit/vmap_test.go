package jit_test

import (
	"math"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
)

// perExample runs f on each row of xs (and the unmapped w) and stacks the
// results: what Vmap must compute.
func perExample(f func(x, w jit.Array) jit.Array, xs, w jit.Array) []float64 {
	var out []float64
	n := xs.Shape()[0]
	rest := xs.Shape()[1:]
	for i := range n {
		start := make([]int, xs.Ndim())
		limit := xs.Shape()
		start[0], limit[0] = i, i+1
		out = append(out, f(xs.Slice(start, limit).Reshape(rest...), w).Float64s()...)
	}
	return out
}

func near(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.IsNaN(got[i]) != math.IsNaN(want[i]) || math.Abs(got[i]-want[i]) > 1e-5*math.Max(1, math.Abs(want[i])) {
			t.Fatalf("%s[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

// TestVmapAgainstPerExample batches hand-written programs (every control
// flow form among them) and compares with stacking per-example calls,
// eagerly and under Jit.
func TestVmapAgainstPerExample(t *testing.T) {
	xs := jit.FromSlice([]float32{-1.5, 0.5, 2, -0.25, 1, 3, 0.75, -2, 0.1, 1.25, -0.5, 2.5}, 4, 3)
	w := jit.FromSlice([]float32{0.5, -1, 2, 1, 0.25, -0.5}, 3, 2)
	sq := func(v jit.Array) jit.Array { return v.Mul(v) }
	cases := map[string]func(x, w jit.Array) jit.Array{
		"elementwise": func(x, w jit.Array) jit.Array { return x.Sin().Mul(x.Exp()).Add(x.Abs().Sqrt()).Max(0.1) },
		"broadcast":   func(x, w jit.Array) jit.Array { return x.Reshape(3, 1).Mul(x).Add(w.Sum(1)) },
		"matmul":      func(x, w jit.Array) jit.Array { return x.MatMul(w).Tanh() },
		"reduce": func(x, w jit.Array) jit.Array {
			return x.MaxReduce().Add(x.MinReduce()).Add(x.Mean()).Reshape(1).Add(x)
		},
		"layout": func(x, w jit.Array) jit.Array {
			return jit.Concatenate(0, x.Slice([]int{1}, []int{3}), w.Slice([]int{0, 0}, []int{1, 2}).Reshape(2)).Reshape(2, 2).Transpose().Reshape(4)
		},
		"where": func(x, w jit.Array) jit.Array { return jit.Where(x.Gt(0), x.Log1p(), w.Sum()) },
		"cond": func(x, w jit.Array) jit.Array {
			return jit.Cond(x.Sum().Gt(0), func(v jit.Array) jit.Array { return v.Sin() }, sq, x)
		},
		"cond_unbatched_pred": func(x, w jit.Array) jit.Array {
			return jit.Cond(w.Sum().Gt(0), func(v jit.Array) jit.Array { return v.Sin() }, sq, x)
		},
		"switch": func(x, w jit.Array) jit.Array {
			return jit.Switch(x.Sum().Astype(jit.Int32), []func(jit.Array) jit.Array{sq, jit.Array.Cos, jit.Array.Exp}, x)
		},
		"while": func(x, w jit.Array) jit.Array {
			return jit.WhileLoop(func(c jit.Array) jit.Array { return c.Abs().Sum().Lt(20) }, func(c jit.Array) jit.Array { return c.Mul(2).Add(0.5) }, x)
		},
		"fori_traced": func(x, w jit.Array) jit.Array {
			n := x.Abs().Sum().Astype(jit.Int32)
			return jit.ForiLoop(0, n, func(i jit.Array, c jit.Array) jit.Array { return c.Add(i.Astype(jit.Float32)) }, x)
		},
		"scan": func(x, w jit.Array) jit.Array {
			c, ys := jit.Scan(func(c, v jit.Array) (jit.Array, jit.Array) { return c.Mul(0.5).Add(v), c.Sin() }, w.Sum(), x)
			return ys.Add(c)
		},
		"scann_fori": func(x, w jit.Array) jit.Array {
			return jit.ForiLoop(0, 3, func(i jit.Array, c jit.Array) jit.Array { return c.Cos().Add(i.Astype(jit.Float32)) }, x)
		},
		"nested_jit": func(x, w jit.Array) jit.Array { return vmInner.Call(x).Add(vmInner.Call(x.Sin())) },
		"pad": func(x, w jit.Array) jit.Array {
			p, m, _ := jit.PadTo(x, 5)
			return p.Mul(m.Add(1))
		},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			want := perExample(f, xs, w)
			v := jit.Vmap(f, jit.InAxes(0, jit.NotMapped))
			near(t, "eager", v(xs, w).Float64s(), want)
			near(t, "jitted", jit.Jit(v).Call(xs, w).Float64s(), want)
		})
	}
}

var vmInner = jit.Jit(func(a jit.Array) jit.Array { return a.Mul(a).Add(1) })

func TestVmapAxesPytreesAndNesting(t *testing.T) {
	x := jit.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	// InAxes(1) maps over columns; OutAxes(1) puts the batch last.
	colSum := jit.Vmap(func(c jit.Array) jit.Array { return c.Mul(c) }, jit.InAxes(1), jit.OutAxes(1))
	near(t, "InAxes(1)/OutAxes(1)", colSum(x).Float64s(), []float64{1, 4, 9, 16, 25, 36})
	neg := jit.Vmap(func(c jit.Array) jit.Array { return c.Sum() }, jit.InAxes(-1))
	near(t, "InAxes(-1)", neg(x).Float64s(), []float64{5, 7, 9})
	type pair struct{ A, B jit.Array }
	pt := jit.Vmap(func(p pair) pair { return pair{p.A.Add(p.B), p.A.Mul(2)} })
	r := pt(pair{x, x.Neg()})
	near(t, "pytree", append(r.A.Float64s(), r.B.Float64s()...), []float64{0, 0, 0, 0, 0, 0, 2, 4, 6, 8, 10, 12})
	// Vmap of Vmap maps both dimensions.
	vv := jit.Vmap(jit.Vmap(func(v jit.Array) jit.Array { return v.Mul(10) }))
	near(t, "vmap of vmap", vv(x).Float64s(), []float64{10, 20, 30, 40, 50, 60})
	// An unbatched result is broadcast along the batch; NotMapped keeps it whole.
	both := jit.Vmap(func(v, k jit.Array) (jit.Array, jit.Array) { return v.Sum(), k.Mul(2) },
		jit.InAxes(0, jit.NotMapped), jit.OutAxes(0, jit.NotMapped))
	s, k := both(x, jit.Scalar(float32(3)))
	near(t, "NotMapped result", append(s.Float64s(), k.Float64s()...), []float64{6, 15, 6})
}

// TestVmapCondJaxpr: jax.vmap(lambda x: lax.cond(x > 0, jnp.sin, lambda _: 0.0, x))
// on f32[10] (jax-ml/jax#3103; typed literals as JAX ≥ 0.6.1 prints them).
func TestVmapCondJaxpr(t *testing.T) {
	f := func(x jit.Array) jit.Array {
		//jitlint:ignore batchedcond the test pins the jaxpr of exactly this batched cond
		return jit.Cond(x.Gt(0), jit.Array.Sin, func(jit.Array) jit.Array { return jit.Zeros(jit.Float32) }, x)
	}
	cj, err := jit.MakeJaxpr(jit.Vmap(f))(jit.Spec(jit.Float32, 10))
	if err != nil {
		t.Fatal(err)
	}
	want := `{ lambda ; a:f32[10]. let
    b:bool[10] = gt a 0.0:f32[]
    c:i32[10] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[10] = eq c 0:i32[]
    e:f32[10] = stop_gradient a
    _:f32[10] = select_n d e a
    f:f32[10] = broadcast_in_dim 0.0:f32[]
    g:bool[10] = eq c 1:i32[]
    h:f32[10] = stop_gradient a
    i:f32[10] = select_n g h a
    j:f32[10] = sin i
    k:f32[10] = select_n c f j
  in (k,) }`
	if got := cj.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestVmapOfGrad: per-example gradients, eagerly, under Jit (cached like any
// jitted function), and Grad of a Vmap'd function.
func TestVmapOfGrad(t *testing.T) {
	loss := func(w, x jit.Array) jit.Array {
		//jitlint:ignore batchedcond the test checks gradients through a batched cond
		return jit.Cond(x.Sum().Gt(0), func(v jit.Array) jit.Array { return v.Mul(w).Sin().Sum() }, func(v jit.Array) jit.Array { return v.Mul(w).Mul(w).Sum() }, x)
	}
	w := jit.FromSlice([]float32{0.5, -1})
	xs := jit.FromSlice([]float32{1, 2, -3, -1, 0.5, 0.25}, 3, 2)
	perEx := jit.Vmap(jit.Grad[func(jit.Array, jit.Array) jit.Array](loss), jit.InAxes(jit.NotMapped, 0))
	var want []float64
	for i := range 3 {
		x := xs.Slice([]int{i, 0}, []int{i + 1, 2}).Reshape(2)
		want = append(want, jit.Grad[func(jit.Array, jit.Array) jit.Array](loss)(w, x).Float64s()...)
	}
	near(t, "Vmap(Grad)", perEx(w, xs).Float64s(), want)
	jf := jit.Jit(perEx)
	near(t, "Jit(Vmap(Grad))", jf.Call(w, xs).Float64s(), want)
	jf.Call(w, xs)
	if s := jf.Stats(); s.Traces != 1 || s.Hits != 1 {
		t.Errorf("Jit(Vmap(Grad)): %d traces, %d hits; want 1 and 1", s.Traces, s.Hits)
	}
	// Grad of the summed batched loss is the sum of the per-example gradients.
	total := jit.Grad[func(jit.Array, jit.Array) jit.Array](func(w, xs jit.Array) jit.Array {
		return jit.Vmap(loss, jit.InAxes(jit.NotMapped, 0))(w, xs).Sum()
	})(w, xs).Float64s()
	sum := []float64{want[0] + want[2] + want[4], want[1] + want[3] + want[5]}
	near(t, "Grad(Vmap)", total, sum)
}

func TestVmapErrors(t *testing.T) {
	f := jit.Vmap(func(x, y jit.Array) jit.Array { return x.Add(y) })
	e := catch(t, func() { f(jit.Zeros(jit.Float32, 3), jit.Zeros(jit.Float32, 2)) })
	if e.Kind != jit.ShapeMismatch || !strings.Contains(e.Msg, "Vmap got inconsistent sizes") ||
		!strings.Contains(e.Msg, "axis 0 of x (f32[3]) has size 3") || !strings.Contains(e.Msg, "axis 0 of y (f32[2]) has size 2") {
		t.Errorf("mismatched batch sizes: %v", e)
	}
	e = catch(t, func() { f(jit.Zeros(jit.Float32, 3), jit.Scalar(float32(1))) })
	if e.Kind != jit.ShapeMismatch || !strings.Contains(e.Msg, "Vmap was asked to map y over axis 0") {
		t.Errorf("scalar mapped: %v", e)
	}
	e = catch(t, func() { jit.Vmap(func(x jit.Array) jit.Array { return x }, jit.InAxes(0, 1)) })
	if e.Kind != jit.BadArgument || !strings.Contains(e.Msg, "InAxes has 2 entries") {
		t.Errorf("InAxes length: %v", e)
	}
	e = catch(t, func() {
		jit.Vmap(func(x jit.Array) jit.Array { return x }, jit.OutAxes(jit.NotMapped))(jit.Zeros(jit.Float32, 2))
	})
	if e.Kind != jit.ShapeMismatch || !strings.Contains(e.Msg, "result 0 is NotMapped") {
		t.Errorf("NotMapped batched result: %v", e)
	}
}
