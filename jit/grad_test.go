package jit_test

import (
	"math"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
)

type gradFn = func(jit.Array) jit.Array

// fdGrad is the central-difference gradient of a scalar f at x (float64).
func fdGrad(f gradFn, x []float64) []float64 {
	const h = 1e-6
	g := make([]float64, len(x))
	for i := range x {
		p, m := append([]float64{}, x...), append([]float64{}, x...)
		p[i] += h
		m[i] -= h
		g[i] = (f(jit.FromSlice(p)).Item() - f(jit.FromSlice(m)).Item()) / (2 * h)
	}
	return g
}

func checkGrad(t *testing.T, name string, f gradFn, x []float64) {
	t.Helper()
	want := fdGrad(f, x)
	df := jit.Grad[gradFn](f)
	for how, got := range map[string][]float64{
		"eager":  df(jit.FromSlice(x)).Float64s(),
		"jitted": jit.Jit(df).Call(jit.FromSlice(x)).Float64s(),
	} {
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-6*math.Max(1, math.Abs(want[i])) {
				t.Errorf("%s (%s): d/dx[%d] = %v, finite differences %v", name, how, i, got[i], want[i])
			}
		}
	}
}

// TestGradOfEveryPrimitive differentiates a function per primitive (and
// per control-flow form) and compares with central differences.
func TestGradOfEveryPrimitive(t *testing.T) {
	x := []float64{0.3, -0.7, 1.2, 0.45}
	sq := func(a jit.Array) jit.Array { return a.Mul(a).Sum() }
	w := jit.FromSlice([]float64{0.5, -1, 2, 0.25, 1.5, -0.5, 1, 3}, 4, 2)
	cases := map[string]gradFn{
		"sin":      func(a jit.Array) jit.Array { return a.Sin().Sum() },
		"cos":      func(a jit.Array) jit.Array { return a.Cos().Sum() },
		"tan":      func(a jit.Array) jit.Array { return a.Tan().Sum() },
		"tanh":     func(a jit.Array) jit.Array { return a.Tanh().Sum() },
		"exp":      func(a jit.Array) jit.Array { return a.Exp().Sum() },
		"log":      func(a jit.Array) jit.Array { return a.Mul(a).Add(1).Log().Sum() },
		"log1p":    func(a jit.Array) jit.Array { return a.Mul(a).Log1p().Sum() },
		"expm1":    func(a jit.Array) jit.Array { return a.Expm1().Sum() },
		"sqrt":     func(a jit.Array) jit.Array { return a.Mul(a).Add(1).Sqrt().Sum() },
		"rsqrt":    func(a jit.Array) jit.Array { return a.Mul(a).Add(1).Rsqrt().Sum() },
		"logistic": func(a jit.Array) jit.Array { return a.Logistic().Sum() },
		"abs":      func(a jit.Array) jit.Array { return a.Abs().Mul(a).Sum() },
		"sign":     func(a jit.Array) jit.Array { return a.Sign().Mul(a).Sum() },
		"floor":    func(a jit.Array) jit.Array { return a.Floor().Add(a).Sum() },
		"neg":      func(a jit.Array) jit.Array { return a.Neg().Mul(a).Sum() },
		"ipow":     func(a jit.Array) jit.Array { return a.Pow(3).Add(a.Pow(1)).Add(a.Pow(0)).Sum() },
		"pow":      func(a jit.Array) jit.Array { return a.Abs().Add(0.5).Pow(a.Mul(0.5)).Sum() },
		"div":      func(a jit.Array) jit.Array { return a.Div(a.Mul(a).Add(2)).Sum() },
		"max_min":  func(a jit.Array) jit.Array { return a.Max(a.Mul(0.5)).Add(a.Min(0.1)).Sum() },
		"rem":      func(a jit.Array) jit.Array { return binaryRem(a.Mul(3), a.Add(2)).Sum() },
		"where":    func(a jit.Array) jit.Array { return jit.Where(a.Gt(0), a.Sin(), a.Mul(a)).Sum() },
		"layout": func(a jit.Array) jit.Array {
			m := a.Reshape(2, 2).Transpose()
			return m.Slice([]int{0, 1}, []int{2, 2}).Mul(jit.Concatenate(0, a, a).Slice([]int{3}, []int{5}).Reshape(2, 1)).Sum()
		},
		"broadcast": func(a jit.Array) jit.Array { return a.Reshape(4, 1).Mul(a).Mul(a.Reshape(1, 4)).Sum() },
		"reduce": func(a jit.Array) jit.Array {
			return a.MaxReduce().Add(a.MinReduce()).Add(a.Mean()).Add(a.Reshape(2, 2).Sum(1).Sin().Sum())
		},
		"matmul": func(a jit.Array) jit.Array { return a.MatMul(w).Tanh().Sum() },
		"batched_matmul": func(a jit.Array) jit.Array {
			return a.Reshape(2, 1, 2).MatMul(a.Reshape(2, 2)).MatMul(a.Reshape(2, 2).Transpose()).Sin().Sum()
		},
		"pad": func(a jit.Array) jit.Array {
			p, m, _ := jit.PadTo(a, 6)
			return p.Mul(p).Mul(m.Add(1)).Sum()
		},
		"cond": func(a jit.Array) jit.Array {
			return jit.Cond(a.Sum().Gt(0), func(v jit.Array) jit.Array { return v.Sin().Mul(a).Sum() }, sq, a)
		},
		"switch": func(a jit.Array) jit.Array {
			return jit.Switch(a.Sum().Astype(jit.Int32), []func(jit.Array) jit.Array{sq, func(v jit.Array) jit.Array { return v.Exp().Sum() }}, a)
		},
		"scan": func(a jit.Array) jit.Array {
			c, ys := jit.Scan(func(c, x jit.Array) (jit.Array, jit.Array) { return c.Mul(x).Add(c.Sin()), c.Mul(c) }, a.Slice([]int{0}, []int{1}).Sum(), a)
			return c.Add(ys.Sum())
		},
		"scann_reverse": func(a jit.Array) jit.Array {
			c, ys := jit.ScanN(func(c jit.Array) (jit.Array, jit.Array) { return c.Mul(a).Cos(), c.Sum() }, a, 3, jit.Reverse())
			return c.Sum().Add(ys.Mul(ys).Sum())
		},
		"fori_static": func(a jit.Array) jit.Array {
			return jit.ForiLoop(0, 4, func(i jit.Array, c jit.Array) jit.Array { return c.Mul(0.9).Add(i.Astype(jit.Float64).Mul(c.Sin())) }, a).Sum()
		},
		"nested_jit": func(a jit.Array) jit.Array { return innerSq.Call(a).Add(innerSq.Call(a.Sin())).Sum() },
		"stop_gradient": func(a jit.Array) jit.Array {
			return a.Mul(jit.StopGradient(a)).Sum()
		},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			if name == "stop_gradient" { // d/dx (x * stop(x)) = stop(x) = x
				got := jit.Grad[gradFn](f)(jit.FromSlice(x)).Float64s()
				for i := range x {
					if got[i] != x[i] {
						t.Errorf("stop_gradient: %v, want %v", got, x)
					}
				}
				return
			}
			checkGrad(t, name, f, x)
		})
	}
}

var innerSq = jit.Jit(func(a jit.Array) jit.Array { return a.Mul(a).Add(a) })

// binaryRem is a % b (rem) for float arrays, written with the ops jit has.
func binaryRem(a, b jit.Array) jit.Array {
	return a.Sub(b.Mul(a.Div(b).Abs().Floor().Mul(a.Div(b).Sign())))
}

func TestGradPytreesArgnumsAndValue(t *testing.T) {
	type params struct {
		W jit.Array
		B jit.Array
	}
	loss := func(p params, x jit.Array, scale float64) jit.Array {
		return p.W.Mul(x).Add(p.B).Tanh().Sum().Mul(scale)
	}
	p := params{W: jit.FromSlice([]float64{0.5, -0.25}), B: jit.FromSlice([]float64{0.1, 0.2})}
	x := jit.FromSlice([]float64{1, 2})
	vg := jit.ValueAndGrad[func(params, jit.Array, float64) (jit.Array, params, jit.Array)](loss, jit.Argnums(0, 1))
	v, gp, gx := vg(p, x, 2.0)
	if math.Abs(v.Item()-loss(p, x, 2).Item()) > 1e-12 {
		t.Errorf("value %v, want %v", v, loss(p, x, 2))
	}
	// d/dW = 2 x (1 - t²), d/dB = 2 (1 - t²), d/dx = 2 W (1 - t²).
	tt := p.W.Mul(x).Add(p.B).Tanh()
	d := tt.Mul(tt).Neg().Add(1).Mul(2.0)
	for name, pair := range map[string][2]jit.Array{"W": {gp.W, d.Mul(x)}, "B": {gp.B, d}, "x": {gx, d.Mul(p.W)}} {
		got, want := pair[0].Float64s(), pair[1].Float64s()
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("d/d%s = %v, want %v", name, got, want)
			}
		}
	}
	// A jitted gradient caches like any jitted function.
	jg := jit.Jit(vg, jit.StaticArgnums(2))
	jg.Call(p, x, 2.0)
	jg.Call(p, x, 2.0)
	if s := jg.Stats(); s.Traces != 1 || s.Hits != 1 {
		t.Errorf("jitted ValueAndGrad: %d traces and %d hits, want 1 and 1", s.Traces, s.Hits)
	}
	jg.Call(p, jit.FromSlice([]float64{1, 2}).Astype(jit.Float32), 2.0)
	if s := jg.Stats(); s.Traces != 2 {
		t.Errorf("a new signature must trace again: %d traces", s.Traces)
	}
}

func TestGradThroughConvert(t *testing.T) {
	f := func(a jit.Array) jit.Array { return a.Astype(jit.Float32).Mul(2).Astype(jit.Float64).Sum() }
	g := jit.Grad[gradFn](f)(jit.FromSlice([]float64{0.3, -2}))
	if got := g.Float64s(); g.Dtype() != jit.Float64 || got[0] != 2 || got[1] != 2 {
		t.Errorf("grad through f32 and back: %v (%s), want [2 2] f64", got, g.Dtype())
	}
}

// TestGradJaxprMatchesJAX: jax.make_jaxpr(jax.grad(f))(3.0) for
// f = sin(cos(x)), from the make_jaxpr docstring.
func TestGradJaxprMatchesJAX(t *testing.T) {
	f := func(x jit.Array) jit.Array { return x.Cos().Sin() }
	cj, err := jit.MakeJaxpr(jit.Grad[gradFn](f))(jit.Spec(jit.Float32))
	if err != nil {
		t.Fatal(err)
	}
	want := `{ lambda ; a:f32[]. let
    b:f32[] = cos a
    c:f32[] = sin a
    _:f32[] = sin b
    d:f32[] = cos b
    e:f32[] = mul 1.0:f32[] d
    f:f32[] = neg e
    g:f32[] = mul f c
  in (g,) }`
	if got := cj.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestWhereSqrtNaN: the gradient of where(x > 0, sqrt(x), 0) is NaN at 0,
// as in JAX (0 · ∞); the double where keeps it finite.
func TestWhereSqrtNaN(t *testing.T) {
	x := jit.FromSlice([]float32{0, 1, 4})
	//jitlint:ignore wherenan the test shows the NaN that wherenan warns about
	naive := func(x jit.Array) jit.Array { return jit.Where(x.Gt(0), x.Sqrt(), 0).Sum() }
	safe := func(x jit.Array) jit.Array {
		pos := x.Gt(0)
		return jit.Where(pos, jit.Where(pos, x, 1).Sqrt(), 0).Sum()
	}
	g := jit.Grad[gradFn](naive)(x).Float32s()
	if !math.IsNaN(float64(g[0])) || g[1] != 0.5 || g[2] != 0.25 {
		t.Errorf("naive where: %v, want [NaN 0.5 0.25]", g)
	}
	g = jit.Jit(jit.Grad[gradFn](safe)).Call(x).Float32s()
	if g[0] != 0 || g[1] != 0.5 || g[2] != 0.25 {
		t.Errorf("double where: %v, want [0 0.5 0.25]", g)
	}
}

func TestGradErrors(t *testing.T) {
	var line string
	e := catch(t, func() {
		g := jit.Grad[gradFn](func(x jit.Array) jit.Array { return x.Sin() })
		line = here()
		g(jit.FromSlice([]float32{1, 2, 3}))
	})
	if e.Kind != jit.ShapeMismatch || e.Msg != "Gradient only defined for scalar-output functions. Output had shape: [3]" || e.Pos != line {
		t.Errorf("non-scalar output: %v (pos %q, want %q)", e, e.Pos, line)
	}
	e = catch(t, func() {
		jit.Grad[gradFn](func(x jit.Array) jit.Array { return x.Sum().Astype(jit.Int32) })(jit.FromSlice([]float32{1}))
	})
	if e.Kind != jit.DTypeMismatch || !strings.Contains(e.Msg, "Grad requires a float output") {
		t.Errorf("integer output: %v", e)
	}
	e = catch(t, func() {
		jit.Grad[gradFn](func(n jit.Array) jit.Array { return n.Astype(jit.Float32).Sum() })(jit.FromSlice([]int32{1}))
	})
	if e.Kind != jit.DTypeMismatch || !strings.Contains(e.Msg, "Grad requires float inputs, but n is i32[1]") {
		t.Errorf("integer input: %v", e)
	}
	for name, f := range map[string]gradFn{
		"while": func(x jit.Array) jit.Array {
			return jit.WhileLoop(func(c jit.Array) jit.Array { return c.Sum().Lt(10) }, func(c jit.Array) jit.Array { return c.Mul(2) }, x).Sum()
		},
		"traced fori": func(x jit.Array) jit.Array {
			return jit.ForiLoop(0, x.Sum().Astype(jit.Int32), func(_ jit.Array, c jit.Array) jit.Array { return c.Sin() }, x).Sum()
		},
	} {
		e = catch(t, func() {
			g := jit.Grad[gradFn](f)
			line = here()
			g(jit.FromSlice([]float32{1, 2}))
		})
		if e.Kind != jit.BadArgument || !strings.Contains(e.Msg, "Reverse-mode differentiation does not work for WhileLoop or ForiLoop with traced (dynamic) bounds") ||
			!strings.Contains(e.Msg, "Try using ScanN") || e.Pos != line {
			t.Errorf("%s on the reverse path: %v", name, e)
		}
	}
	// A while loop that does not depend on the differentiated argument is fine.
	g := jit.Grad[func(jit.Array, jit.Array) jit.Array](func(x, n jit.Array) jit.Array {
		k := jit.WhileLoop(func(c jit.Array) jit.Array { return c.Lt(5) }, func(c jit.Array) jit.Array { return c.Add(1) }, n)
		return x.Mul(k.Astype(jit.Float32)).Sum()
	})(jit.FromSlice([]float32{1, 2}), jit.Scalar(int32(2)))
	if got := g.Float32s(); got[0] != 5 || got[1] != 5 {
		t.Errorf("while off the reverse path: %v", got)
	}
	e = catch(t, func() {
		line = here()
		jit.Grad[func(jit.Array) (jit.Array, jit.Array)](func(x jit.Array) jit.Array { return x.Sum() })
	})
	if e.Kind != jit.BadArgument || e.Pos != line ||
		!strings.Contains(e.Msg, "the gradient function type G is func(jit.Array) (jit.Array, jit.Array)") ||
		!strings.Contains(e.Msg, "write jit.Grad[func(jit.Array) jit.Array]") {
		t.Errorf("G mismatch: %v (pos %q, want %q)", e, e.Pos, line)
	}
}

// TestGradOfGrad: second derivatives, through a scan too.
func TestGradOfGrad(t *testing.T) {
	x := []float64{0.5, 1}
	g := jit.Grad[gradFn](func(x jit.Array) jit.Array { return x.Sin().Mul(x).Sum() })
	checkGrad(t, "d²(x sin x)", func(x jit.Array) jit.Array { return g(x).Sum() }, x)
	s := jit.Grad[gradFn](func(x jit.Array) jit.Array {
		c, _ := jit.ScanN(func(c jit.Array) (jit.Array, struct{}) { return c.Sin().Mul(1.5), struct{}{} }, x, 3)
		return c.Sum()
	})
	checkGrad(t, "d² of a scan", func(x jit.Array) jit.Array { return s(x).Sum() }, x)
}

// TestGradAccumulatesWithAddAny: a value used twice gets the sum of its two
// cotangents, printed as JAX's add_any (run as add).
func TestGradAccumulatesWithAddAny(t *testing.T) {
	sq := jit.Grad[gradFn](func(x jit.Array) jit.Array { return x.Mul(x) })
	cj, err := jit.MakeJaxpr(sq)(jit.Spec(jit.Float32))
	if err != nil {
		t.Fatal(err)
	}
	if got := cj.String(); !strings.Contains(got, "= add_any ") {
		t.Errorf("no add_any in\n%s", got)
	}
	if got := jit.Jit(sq).Call(jit.Scalar(float32(3))).Item(); got != 6 {
		t.Errorf("d(x²)/dx at 3 = %v, want 6", got)
	}
}

// TestReluJaxprMatchesJAX: jax.make_jaxpr(jax.nn.relu) and
// jax.make_jaxpr(jax.grad(lambda x: jax.nn.relu(x).sum())) on f32[3], as
// derived from JAX 0.11's source (not from a run): relu is
// custom_jvp(jit(maximum(x, 0))); custom_jvp_call's printing rule shows
// name first and the rule function's name (defjvps calls it jvp); the
// gradient restages the custom_jvp_call, then its rule's forward part
// (x > 0 and the zeros of full_like(g, 0)), then the transpose of
// select(x > 0, g, zeros).
func TestReluJaxprMatchesJAX(t *testing.T) {
	call := `custom_jvp_call[
      name=relu
      call_jaxpr={ lambda ; c:f32[3]. let
          d:f32[3] = jit[
            name=relu
            jaxpr={ lambda ; c:f32[3]. let d:f32[3] = max c 0.0:f32[] in (d,) }
          ] c
        in (d,) }
      jvp=jvp
      symbolic_zeros=False
    ] a`
	for name, c := range map[string]struct {
		fn   any
		want string
	}{
		"relu": {jit.Relu, "{ lambda ; a:f32[3]. let\n    b:f32[3] = " + call + "\n  in (b,) }"},
		"grad": {jit.Grad[gradFn](func(x jit.Array) jit.Array { return jit.Relu(x).Sum() }), "{ lambda ; a:f32[3]. let\n    b:f32[3] = " + call + `
    e:bool[3] = gt a 0.0:f32[]
    _:f32[3] = broadcast_in_dim 0.0:f32[]
    _:f32[] = reduce_sum[axes=(0,) out_sharding=None] b
    f:f32[3] = broadcast_in_dim 1.0:f32[]
    g:f32[3] = broadcast_in_dim 0.0:f32[]
    h:f32[3] = select_n e g f
  in (h,) }`},
	} {
		cj, err := jit.MakeJaxpr(c.fn)(jit.Spec(jit.Float32, 3))
		if err != nil {
			t.Fatal(err)
		}
		if got := cj.String(); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", name, got, c.want)
		}
	}
}
