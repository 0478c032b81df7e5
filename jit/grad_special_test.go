package jit

import (
	"math"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// specialCase is one differentiation rule at its special points: the
// derivative of sum(f(x)) at each point of x, as JAX's rule gives it.
type specialCase struct {
	name  string
	f     func(x Array) Array // elementwise, or reducing the last axis
	at    []float64           // the points (float32 values)
	shape []int               // of at, when not 1-D: rows are vmapped
	want  []float64           // JAX's derivative at each point
}

var (
	inf  = math.Inf(1)
	nan  = math.NaN()
	negZ = math.Copysign(0, -1)
)

// f32 is a float32 scalar (constants of the cases below, of x's dtype).
func f32(v float64) Array { return Scalar(float32(v)) }

// derivative is the elementwise derivative of f, by Grad.
func derivative(f func(Array) Array) func(Array) Array {
	return Grad[func(Array) Array](func(x Array) Array { return f(x).Sum() })
}

// clampOf stages lax.clamp(lo, x, hi) (no public function stages it on floats).
func clampOf(lo, x, hi Array) Array {
	return bind(ir.Clamp, nil, []ir.Aval{x.val().aval}, lo, x, hi)[0]
}

// specialCases are JAX's values, derived from JAX's rules (jax/_src/lax/lax.py,
// jax/_src/nn/functions.py, jax/_src/lax/other.py, JAX 0.11), quoted per case.
var specialCases = []specialCase{
	// _abs_jvp_rule: select(ge(x, _zero(x)), g, neg(g))
	{"abs", Array.Abs, []float64{-1, negZ, 0, 1}, nil, []float64{-1, 1, 1, 1}},
	// ad.defjvp_zero(sign_p)
	{"sign", Array.Sign, []float64{-1, 0, 1}, nil, []float64{0, 0, 0}},
	// jax.nn.relu: relu.defjvps(lambda g, ans, x: lax.select(x > 0, g, lax.full_like(g, 0)))
	{"relu", Relu, []float64{-1, negZ, 0, 1}, nil, []float64{0, 0, 0, 1}},
	// jax.nn.softplus is jnp.logaddexp(x, 0); _logaddexp_jvp:
	// t1 * exp(_replace_inf(x1) - _replace_inf(primal_out)), _replace_inf(x) = select(x == inf, 0, x)
	{"softplus", Softplus, []float64{-inf, -100, -1, 0, 1, 100, inf}, nil,
		[]float64{0, 0, 1 / (1 + math.E), 0.5, 1 / (1 + 1/math.E), 1, 1}},

	// Second derivatives: the derivative of each rule (relu's select does not
	// depend on x; logaddexp's exp(x - softplus(x)) is the logistic's).
	{"relu''", derivative(Relu), []float64{-1, 0, 1}, nil, []float64{0, 0, 0}},
	{"softplus''", derivative(Softplus), []float64{-100, 0, 100}, nil, []float64{0, 0.25, 0}},

	// max_p, min_p: mul(g, _balanced_eq(x, ans, y)); _balanced_eq is 1 where x
	// is the result, 1/2 where y is too, else 0
	{"max(x, 0)", func(x Array) Array { return x.Max(0) }, []float64{-1, 0, 1}, nil, []float64{0, 0.5, 1}},
	{"min(x, 0)", func(x Array) Array { return x.Min(0) }, []float64{-1, 0, 1}, nil, []float64{1, 0.5, 0}},
	{"max(x, x)", func(x Array) Array { return x.Max(x) }, []float64{-1, 0, 1}, nil, []float64{1, 1, 1}},
	{"max(x, 2x)", func(x Array) Array { return x.Max(x.Mul(2)) }, []float64{-1, 0, 1}, nil, []float64{1, 1.5, 2}},
	// _reduce_chooser_jvp_rule: the cotangent is split evenly among the ties
	{"reduce_max", func(x Array) Array { return x.MaxReduce(x.Ndim() - 1) },
		[]float64{1, 1, 0, 2, 0, 2, 3, 3, 3}, []int{3, 3}, []float64{0.5, 0.5, 0, 0.5, 0, 0.5, 1. / 3, 1. / 3, 1. / 3}},
	{"reduce_min", func(x Array) Array { return x.MinReduce(x.Ndim() - 1) },
		[]float64{1, 1, 0, 0, 2, 0}, []int{2, 3}, []float64{0, 0, 1, 0.5, 0, 0.5}},
	// clamp_p, d/doperand: select(bitwise_and(gt(operand, min), lt(operand, max)), g, _zeros(operand))
	{"clamp d/dx", func(x Array) Array { return clampOf(f32(-1), x, f32(1)) },
		[]float64{-2, -1, 0, 1, 2}, nil, []float64{0, 0, 1, 0, 0}},
	// clamp_p, d/dmin: select(bitwise_and(gt(min, operand), lt(min, max)), g, _zeros(operand))
	{"clamp d/dlo", func(lo Array) Array { return clampOf(lo, zerosLike(lo.val().aval), f32(1)) },
		[]float64{-1, 0, 0.5, 1, 2}, nil, []float64{0, 0, 1, 0, 0}},
	// clamp_p, d/dmax: select(lt(max, operand), g, _zeros(operand))
	{"clamp d/dhi", func(hi Array) Array { return clampOf(f32(-1), zerosLike(hi.val().aval), hi) },
		[]float64{-2, -0.5, 0, 1}, nil, []float64{1, 1, 0, 0}},

	// sqrt_p: mul(g, div(_const(x, 0.5), ans))
	{"sqrt", Array.Sqrt, []float64{-1, 0, 1, 4}, nil, []float64{nan, inf, 0.5, 0.25}},
	// rsqrt_p: mul(g, mul(_const(x, -0.5), div(ans, x)))
	{"rsqrt", Array.Rsqrt, []float64{-1, 0, 1, 4}, nil, []float64{nan, -inf, -0.5, -0.0625}},
	// log_p: div(g, x) (finite where log itself is NaN)
	{"log", Array.Log, []float64{-1, negZ, 0, 1}, nil, []float64{-1, -inf, inf, 1}},
	// log1p_p: div(g, add(x, _one(x)))
	{"log1p", Array.Log1p, []float64{-2, -1, 0}, nil, []float64{-1, inf, 1}},
	// exp_p: mul(g, ans): overflows to inf with exp
	{"exp", Array.Exp, []float64{-inf, 0, 88, 89, inf}, nil, []float64{0, 1, math.Exp(88), inf, inf}},
	// expm1_p: mul(g, add(ans, _one(ans)))
	{"expm1", Array.Expm1, []float64{-inf, 0, 89}, nil, []float64{0, 1, inf}},
	// logistic_p: mul(g, mul(ans, sub(_one(ans), ans)))
	{"logistic", Array.Logistic, []float64{-inf, -100, 0, 100, inf}, nil, []float64{0, 0, 0.25, 0, 0}},
	// tanh_p: mul(add(g, mul(g, ans)), sub(_one(x), ans))
	{"tanh", Array.Tanh, []float64{-inf, -100, 0, 100, inf}, nil, []float64{0, 0, 1, 0, 0}},

	// _pow_jvp_lhs (float exponent): mul(y, pow(x, sub(y, _ones(y)))); 0 * 0**-1 is NaN
	{"pow x**0.0 d/dx", func(x Array) Array { return x.Pow(f32(0)) }, []float64{-2, 0, 2}, nil, []float64{0, nan, 0}},
	{"pow x**2.0 d/dx", func(x Array) Array { return x.Pow(f32(2)) }, []float64{-2, 0, 2}, nil, []float64{-4, 0, 4}},
	{"pow x**0.5 d/dx", func(x Array) Array { return x.Pow(f32(0.5)) }, []float64{-1, 0, 4}, nil, []float64{nan, inf, 0.25}},
	// _pow_jvp_rhs: mul(g, mul(log(_replace_zero(x)), ans)), _replace_zero(x) = select(eq(x, 0), 1, x)
	{"pow 0**y d/dy", func(y Array) Array { return f32(0).Pow(y) }, []float64{0, 2}, nil, []float64{0, 0}},
	{"pow (-2)**y d/dy", func(y Array) Array { return f32(-2).Pow(y) }, []float64{0, 2}, nil, []float64{nan, nan}},
	{"pow 2**y d/dy", func(y Array) Array { return f32(2).Pow(y) }, []float64{0, 1}, nil, []float64{math.Ln2, 2 * math.Ln2}},
	// _integer_pow_jvp: zeros for y == 0, g for y == 1, else mul(g, mul(_const(x, y), integer_pow(x, y - 1)))
	{"integer_pow 0", func(x Array) Array { return x.Pow(0) }, []float64{-1, 0, 1}, nil, []float64{0, 0, 0}},
	{"integer_pow 1", func(x Array) Array { return x.Pow(1) }, []float64{-1, 0, 1}, nil, []float64{1, 1, 1}},
	{"integer_pow 2", func(x Array) Array { return x.Pow(2) }, []float64{-1, 0, 1}, nil, []float64{-2, 0, 2}},
	{"integer_pow 3", func(x Array) Array { return x.Pow(3) }, []float64{-2, 0, 1}, nil, []float64{12, 0, 3}},
	{"integer_pow -1", func(x Array) Array { return x.Pow(-1) }, []float64{-2, 0, 1}, nil, []float64{-0.25, -inf, -1}},
	// div_p: div(g, y) and mul(mul(neg(g), x), integer_pow(y, -2))
	{"div x/0 d/dx", func(x Array) Array { return x.Div(f32(0)) }, []float64{-1, 0, 1}, nil, []float64{inf, inf, inf}},
	{"div 1/y d/dy", func(y Array) Array { return f32(1).Div(y) }, []float64{0, 2}, nil, []float64{-inf, -0.25}},
	{"div 0/y d/dy", func(y Array) Array { return f32(0).Div(y) }, []float64{0, 2}, nil, []float64{nan, 0}},

	// ad.defjvp_zero(floor_p), ad.defjvp_zero(ceil_p) (jit has no round)
	{"floor", Array.Floor, []float64{-1.5, -1, 0, 0.5, 1}, nil, []float64{0, 0, 0, 0, 0}},
	{"ceil", Array.Ceil, []float64{-1.5, -1, 0, 0.5, 1}, nil, []float64{0, 0, 0, 0, 0}},

	// _select_transpose_rule: the cotangent goes to the chosen case, zeros to the others
	{"where", func(x Array) Array { return Where(x.Gt(0), x.Mul(2), x.Mul(3)) }, []float64{-1, 0, 1}, nil, []float64{3, 3, 2}},
	{"where ge", func(x Array) Array { return Where(x.Ge(0), x, 0) }, []float64{-1, 0, 1}, nil, []float64{0, 1, 1}},
	// ...and zeros times sqrt's infinite derivative at 0 is NaN (the double-where trap)
	{"where sqrt", func(x Array) Array { return Where(x.Gt(0), x.Sqrt(), 0) }, []float64{0, 1}, nil, []float64{nan, 0.5}},
	{"select_n int", func(x Array) Array {
		i := x.Gt(0).Astype(Int32).Add(x.Gt(1).Astype(Int32))
		return bind(ir.SelectN, nil, []ir.Aval{x.val().aval}, i, x, x.Mul(2), x.Mul(3))[0]
	}, []float64{-1, 0, 0.5, 1, 2}, nil, []float64{1, 1, 2, 2, 3}},
}

// TestGradAtSpecialPoints checks every differentiation rule at the points
// where JAX chooses a value (ties, kinks, zeros, infinities, overflow), for
// Grad eagerly and jitted, Vmap(Grad(...)) row by row, eagerly and jitted,
// and Grad of a Vmap.
func TestGradAtSpecialPoints(t *testing.T) {
	for _, c := range specialCases {
		t.Run(c.name, func(t *testing.T) {
			data := make([]float32, len(c.at))
			for i, v := range c.at {
				data[i] = float32(v)
			}
			shape := c.shape
			if shape == nil {
				shape = []int{len(data)}
			}
			x := FromSlice(data, shape...)
			sum := func(x Array) Array { return c.f(x).Sum() }
			df := Grad[func(Array) Array](sum)
			dv := Grad[func(Array) Array](func(x Array) Array { return Vmap(sum)(x).Sum() })
			for how, g := range map[string]Array{
				"Grad":            df(x),
				"Jit(Grad)":       Jit(df).Call(x),
				"Vmap(Grad)":      Vmap(df)(x),
				"Jit(Vmap(Grad))": Jit(Vmap(df)).Call(x),
				"Grad(Vmap)":      dv(x),
			} {
				if g.Dtype() != Float32 {
					t.Errorf("%s: dtype %s, want f32", how, g.Dtype())
				}
				got := g.Float64s()
				for i, w := range c.want {
					if !sameValue(ir.Float32, got[i], w) {
						t.Errorf("%s at %v: %v, JAX gives %v", how, c.at[i], got[i], w)
					}
				}
			}
		})
	}
}
