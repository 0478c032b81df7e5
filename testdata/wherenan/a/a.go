package a

import "github.com/jitlint/jitlint/jit"

// SqrtPos is differentiated below: its gradient is NaN at 0.
func SqrtPos(x jit.Array) jit.Array {
	return jit.Where(x.Gt(0), x.Sqrt(), 0).Sum() // want `jit.Where\(x.Gt\(0\), x.Sqrt\(\), 0\) is differentiated by jit.Grad, and where x.Gt\(0\) is false the gradient of the unchosen branch x.Sqrt\(\) is still computed at the excluded values, where the derivative of Sqrt is infinite at 0: the zero it is multiplied by gives NaN \(0 × ∞\), as in JAX. Use the double where, substituting a safe value inside the branch too: jit.Where\(x.Gt\(0\), x, 1\)`
}

var dSqrtPos = jit.Grad[func(jit.Array) jit.Array](SqrtPos)

// Entropy calls a helper that is differentiated through it.
func Entropy(p jit.Array) jit.Array {
	return plogp(p).Sum().Neg()
}

func plogp(p jit.Array) jit.Array {
	nz := p.Gt(0)
	return jit.Where(nz, p.Mul(p.Log()), 0) // want `is differentiated by jit.ValueAndGrad \(through Entropy\), and where nz is false .* the derivative of Log is infinite at 0`
}

var vgEntropy = jit.ValueAndGrad[func(jit.Array) (jit.Array, jit.Array)](Entropy)

// Ratio divides by the tested value in the false branch.
func Ratio(x, y jit.Array) jit.Array {
	return jit.Where(y.Eq(0), 0, x.Div(y)).Sum() // want `where y.Eq\(0\) is true .* a division is infinite where the divisor is 0`
}

var dRatio = jit.Grad[func(jit.Array, jit.Array) jit.Array](Ratio, jit.Argnums(1))

// Literal: a function literal, with a fractional power.
var dRoot = jit.Grad[func(jit.Array) jit.Array](func(x jit.Array) jit.Array {
	return jit.Where(x.Ge(0), x.Pow(0.5), x).Sum() // want `a fractional power is infinite at 0`
})

// ---- not reported ----

// Safe is the double where.
func Safe(x jit.Array) jit.Array {
	pos := x.Gt(0)
	return jit.Where(pos, jit.Where(pos, x, 1).Sqrt(), 0).Sum()
}

var dSafe = jit.Grad[func(jit.Array) jit.Array](Safe)

// Smooth branches have finite derivatives everywhere.
func Smooth(x jit.Array) jit.Array {
	return jit.Where(x.Gt(0), x.Sin(), x.Mul(x)).Add(jit.Where(x.Gt(0), x.Pow(2), 0)).Sum()
}

var dSmooth = jit.Grad[func(jit.Array) jit.Array](Smooth)

// Other: the singular operation does not see the tested value.
func Other(x, y jit.Array) jit.Array {
	return jit.Where(x.Gt(0), y.Abs().Add(1).Sqrt(), 0).Sum()
}

var dOther = jit.Grad[func(jit.Array, jit.Array) jit.Array](Other)

// NotDifferentiated is only jitted: the NaN gradient cannot happen.
func NotDifferentiated(x jit.Array) jit.Array {
	return jit.Where(x.Gt(0), x.Sqrt(), 0)
}

var jitted = jit.Jit(NotDifferentiated)

// Local: a variable holding a literal.
func Local() {
	logp := func(p jit.Array) jit.Array {
		return jit.Where(p.Gt(0), p.Log(), 0).Sum() // want `is differentiated by jit.Grad, and where p.Gt\(0\) is false`
	}
	_ = jit.Grad[func(jit.Array) jit.Array](logp)
}

// ---- through helpers and compositions ----

// positive is a predicate made by a helper.
func positive(x jit.Array) jit.Array { return x.Gt(0) }

// HelperPred tests through a helper and takes the root in the true branch.
func HelperPred(x jit.Array) jit.Array {
	return jit.Where(positive(x), x.Sqrt(), 0).Sum() // want `is differentiated by jit.Grad, and where positive\(x\) is false .* the derivative of Sqrt is infinite at 0`
}

var dHelperPred = jit.Grad[func(jit.Array) jit.Array](HelperPred)

// PerExample maps the gradient of a loss whose Where divides by what it
// tests for zero.
func PerExample(x jit.Array) jit.Array {
	return jit.Where(x.Ne(0), x.Log(), 0).Sum() // want `is differentiated by jit.Grad, and where x.Ne\(0\) is false .* the derivative of Log is infinite at 0`
}

var perExample = jit.Vmap(jit.Grad[func(jit.Array) jit.Array](PerExample))

// Frozen differentiates only its second argument: the root of the first
// is a constant of the gradient, never NaN.
func Frozen(x, w jit.Array) jit.Array {
	return jit.Where(x.Gt(0), x.Sqrt(), 0).Mul(w).Sum()
}

var dFrozen = jit.Grad[func(jit.Array, jit.Array) jit.Array](Frozen, jit.Argnums(1))

// ---- operands that are zero where the tested value is ----

// Bridge raises |w| to a power below one: |w| is 0 where w is.
func Bridge(w jit.Array) jit.Array {
	return jit.Where(w.Ne(0), w.Abs().Pow(0.5), 0).Sum() // want `where w.Ne\(0\) is false .* the derivative of a fractional power is infinite at 0`
}

// Elastic raises |w| to 1.5, whose slope at 0 is 0: no NaN.
func Elastic(w jit.Array) jit.Array {
	return jit.Where(w.Ne(0), w.Abs().Pow(1.5), 0).Sum()
}

// Deviance takes the log of y/mu, zero where y is.
func Deviance(mu, y jit.Array) jit.Array {
	return jit.Where(y.Gt(0), y.Mul(y.Div(mu).Log()), 0).Sum() // want `where y.Gt\(0\) is false .* the derivative of Log is infinite at 0`
}

// RelErr divides a differentiated error by data tested for zero: the
// derivative in the dividend, 1/y, is infinite there.
func RelErr(pred, y jit.Array) jit.Array {
	return jit.Where(y.Ne(0), y.Sub(pred).Div(y).Abs(), 0).Sum() // want `where y.Ne\(0\) is false .* a division is infinite where the divisor is 0`
}

// ---- a table of objectives, differentiated row by row ----

func tableSqrt(x jit.Array) jit.Array {
	return jit.Where(x.Gt(0), x.Sqrt(), 0).Sum() // want `is differentiated by jit.Grad, and where x.Gt\(0\) is false`
}

func tableSquare(x jit.Array) jit.Array { return x.Mul(x).Sum() }

func Objectives(x jit.Array) {
	for _, row := range []struct {
		name string
		fn   func(jit.Array) jit.Array
	}{{"sqrt", tableSqrt}, {"square", tableSquare}} {
		_ = jit.Grad[func(jit.Array) jit.Array](row.fn)(x)
	}
	_ = jit.Grad[func(jit.Array) jit.Array](Bridge)
	_ = jit.Grad[func(jit.Array) jit.Array](Elastic)
	_ = jit.Grad[func(jit.Array, jit.Array) jit.Array](Deviance)
	_ = jit.Grad[func(jit.Array, jit.Array) jit.Array](RelErr)
}
