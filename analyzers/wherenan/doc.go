// Package wherenan defines an Analyzer that reports jit.Where calls whose
// gradient is NaN.
//
// # Analyzer wherenan
//
// wherenan: report jit.Where calls in differentiated code whose unchosen branch has a singular derivative
//
// In a function that jit.Grad or jit.ValueAndGrad differentiates (directly
// or through calls of functions of the package), a
//
//	jit.Where(x.Gt(0), x.Sqrt(), 0)
//
// has the right value but a NaN gradient wherever the predicate is false:
// reverse mode still differentiates the branch that was not chosen, at the
// values the predicate excludes, and multiplies its derivative by a zero
// cotangent. The derivative of Sqrt at 0 is infinite, and 0 × ∞ is NaN
// (exactly as in JAX). The same holds for Log, Rsqrt and Log1p, for Div by
// the tested value, and for Pow with a fractional exponent, whenever the
// operation is applied to the value the predicate tests.
//
// The fix is the "double where": substitute a safe value inside the branch
// too, so that the unchosen branch never sees the excluded values:
//
//	jit.Where(x.Gt(0), jit.Where(x.Gt(0), x, 1).Sqrt(), 0)
//
// The analyzer suggests that rewrite (1 is safe for every operation it
// reports).
package wherenan
