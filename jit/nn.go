package jit

import (
	"math"

	"github.com/jitlint/jitlint/jit/ir"
)

// Relu returns max(x, 0). Its derivative is 0 at 0, as jax.nn.relu's (a
// custom_jvp of a jitted max, printed as JAX prints it), not max's 1/2.
func Relu(x Array) Array { return relu.call(x) }

// Softplus returns log(1 + e**x), computed stably as jax.nn.softplus does,
// by logaddexp(x, 0). Its derivative is logaddexp's rule,
// e**(x - softplus(x)) (the logistic; 1/2 at 0).
func Softplus(x Array) Array {
	if !x.Dtype().IsFloat() {
		x = convertTo(x, Float32, x.WeakType())
	}
	// jnp.logaddexp promotes 0 to x's type: weak only when x is.
	return logaddexp.call(x, concrete(ir.ScalarBuffer(x.Dtype(), 0), x.WeakType()))
}

// relu is jax.nn.relu: custom_jvp(jit(lambda x: jnp.maximum(x, 0))).
var relu = &customJVP{
	name: "relu",
	body: func(args []Array) Array {
		return inJit("relu", func(in []Array) []Array { return []Array{in[0].Max(0)} }, args)[0]
	},
	// relu.defjvps(lambda g, ans, x: lax.select(x > 0, g, lax.full_like(g, 0)))
	// (defjvps names its rule jvp). The forward pass stages x > 0 and the
	// zeros, which the select's transpose does not read, as JAX's does.
	rule: &customRule{name: "jvp", vjp: func(in, _ []Array, _ []bool) backward {
		pos := in[0].Gt(0.0)
		zerosLike(in[0].val().aval)
		return func(ct []Array) []Array { return []Array{selectTranspose(pos, ct[0], []bool{false, true})[1]} }
	}},
}

// logaddexp is jax._src.lax.other.logaddexp on real floats,
// log(e**x1 + e**x2) without overflow, a custom_jvp.
var logaddexp = &customJVP{
	name: "logaddexp",
	body: func(args []Array) Array {
		x1, x2 := args[0], args[1]
		amax := x1.Max(x2)
		delta := x1.Sub(x2)
		// NaN delta: NaNs, or infinities of the same sign.
		return Where(delta.Ne(delta), x1.Add(x2), amax.Add(delta.Abs().Neg().Exp().Log1p()))
	},
	// _logaddexp_jvp: t1 * exp(_replace_inf(x1) - _replace_inf(primal_out)),
	// the same for t2.
	rule: &customRule{name: "_logaddexp_jvp", vjp: func(in, out []Array, act []bool) backward {
		r := make([]Array, len(in))
		var ro Array
		for i, x := range in {
			if act[i] {
				rx := replaceInf(x)
				if ro.v == nil {
					ro = replaceInf(out[0])
				}
				r[i] = rx.Sub(ro).Exp()
			}
		}
		return func(ct []Array) []Array {
			res := make([]Array, len(in))
			for i, x := range in {
				if act[i] {
					res[i] = unbroadcast(ct[0].Mul(r[i]), x.val().aval)
				}
			}
			return res
		}
	}},
}

// replaceInf is JAX's _replace_inf: x with +inf replaced by 0.
func replaceInf(x Array) Array {
	return Where(x.Eq(math.Inf(1)), zerosLike(x.val().aval), x)
}
