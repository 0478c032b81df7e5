package jit

import (
	"github.com/jitlint/jitlint/jit/ir"
)

// binary applies an elementwise binary primitive with JAX's dtype promotion
// and shape rules (jnp's): scalars (Go numbers, 0-d arrays) enter the
// equation as they are (`mul c 3.0:f32[]`); operands of equal rank enter as
// they are too, size-1 dimensions broadcasting inside the primitive
// (`add a:f32[1] b:f32[2]`); an operand of lower rank is first padded with
// leading size-1 dimensions by a broadcast_in_dim (jnp's rank promotion).
func binary(prim string, x, y any) Array {
	a, b := asArray(x), asArray(y)
	av, bv := a.val().aval, b.val().aval
	dt, weak := promote(av, bv)
	if prim == ir.Div && !dt.IsFloat() { // true division, as jnp.divide
		dt, weak = Float32, weak && av.Weak && bv.Weak
	}
	if (prim == ir.And || prim == ir.Or) && dt.IsFloat() {
		throw(DTypeMismatch, "%s needs bool or integer operands, got %s and %s; compare first (e.g. x.Gt(0)) to get a bool array",
			prim, av.DType, bv.DType)
	}
	a, b = convertTo(a, dt, weak), convertTo(b, dt, weak)
	shape := av.Shape
	switch {
	case len(av.Shape) == 0:
		shape = bv.Shape
	case len(bv.Shape) == 0:
	default:
		shape = broadcastShapes(prim, av.Shape, bv.Shape)
		a, b = padRank(a, len(shape)), padRank(b, len(shape))
	}
	out := ir.Aval{Shape: append([]int{}, shape...), DType: dt, Weak: weak}
	if ir.IsCompare(prim) {
		out.DType, out.Weak = Bool, false
	}
	return bind(prim, nil, []ir.Aval{out}, a, b)[0]
}

// unary applies an elementwise unary primitive; float-only primitives first
// convert integer and bool operands to f32 (as jnp does).
func unary(prim string, a Array, floatOnly bool, params ir.Params) Array {
	v := a.val()
	if floatOnly && !v.aval.DType.IsFloat() {
		a = convertTo(a, Float32, v.aval.Weak)
		v = a.val()
	}
	return bind(prim, params, []ir.Aval{v.aval}, a)[0]
}

// Add returns a + b (b: an Array or a Go number).
func (a Array) Add(b any) Array { return binary(ir.Add, a, b) }

// Sub returns a - b.
func (a Array) Sub(b any) Array { return binary(ir.Sub, a, b) }

// Mul returns a * b.
func (a Array) Mul(b any) Array { return binary(ir.Mul, a, b) }

// Div returns a / b (true division: integers are converted to f32).
func (a Array) Div(b any) Array { return binary(ir.Div, a, b) }

// Pow returns a ** b: an integer_pow equation when b is a Go int, pow otherwise.
func (a Array) Pow(b any) Array {
	if n, ok := b.(int); ok {
		return unary(ir.IntegerPow, a, false, ir.Params{"y": n})
	}
	return binary(ir.Pow, a, b)
}

// Max returns the elementwise maximum of a and b.
func (a Array) Max(b any) Array { return binary(ir.Max, a, b) }

// Min returns the elementwise minimum of a and b.
func (a Array) Min(b any) Array { return binary(ir.Min, a, b) }

// Gt returns a > b as a bool array.
func (a Array) Gt(b any) Array { return binary(ir.Gt, a, b) }

// Ge returns a >= b as a bool array.
func (a Array) Ge(b any) Array { return binary(ir.Ge, a, b) }

// Lt returns a < b as a bool array.
func (a Array) Lt(b any) Array { return binary(ir.Lt, a, b) }

// Le returns a <= b as a bool array.
func (a Array) Le(b any) Array { return binary(ir.Le, a, b) }

// Eq returns a == b as a bool array.
func (a Array) Eq(b any) Array { return binary(ir.Eq, a, b) }

// Ne returns a != b as a bool array.
func (a Array) Ne(b any) Array { return binary(ir.Ne, a, b) }

// And returns the logical (bool) or bitwise (int) and of a and b.
func (a Array) And(b any) Array { return binary(ir.And, a, b) }

// Or returns the logical (bool) or bitwise (int) or of a and b.
func (a Array) Or(b any) Array { return binary(ir.Or, a, b) }

// Not returns the logical (bool) or bitwise (int) negation of a.
func (a Array) Not() Array {
	if dt := a.Dtype(); dt.IsFloat() {
		throw(DTypeMismatch, "not needs a bool or integer operand, got %s; compare first (e.g. x.Gt(0)) to get a bool array", dt)
	}
	return unary(ir.Not, a, false, nil)
}

// Neg returns -a.
func (a Array) Neg() Array { return unary(ir.Neg, a, false, nil) }

// Abs returns |a|.
func (a Array) Abs() Array { return unary(ir.Abs, a, false, nil) }

// Sign returns -1, 0 or 1 per element.
func (a Array) Sign() Array { return unary(ir.Sign, a, false, nil) }

// Sin returns sin(a).
func (a Array) Sin() Array { return unary(ir.Sin, a, true, nil) }

// Cos returns cos(a).
func (a Array) Cos() Array { return unary(ir.Cos, a, true, nil) }

// Tan returns tan(a).
func (a Array) Tan() Array { return unary(ir.Tan, a, true, nil) }

// Tanh returns tanh(a).
func (a Array) Tanh() Array { return unary(ir.Tanh, a, true, nil) }

// Exp returns e**a.
func (a Array) Exp() Array { return unary(ir.Exp, a, true, nil) }

// Log returns the natural logarithm of a.
func (a Array) Log() Array { return unary(ir.Log, a, true, nil) }

// Log1p returns log(1 + a), accurate for small a.
func (a Array) Log1p() Array { return unary(ir.Log1p, a, true, nil) }

// Expm1 returns e**a - 1, accurate for small a.
func (a Array) Expm1() Array { return unary(ir.Expm1, a, true, nil) }

// Sqrt returns the square root of a.
func (a Array) Sqrt() Array { return unary(ir.Sqrt, a, true, nil) }

// Rsqrt returns 1 / sqrt(a).
func (a Array) Rsqrt() Array { return unary(ir.Rsqrt, a, true, nil) }

// Floor rounds down.
func (a Array) Floor() Array { return unary(ir.Floor, a, true, nil) }

// Ceil rounds up.
func (a Array) Ceil() Array { return unary(ir.Ceil, a, true, nil) }

// Logistic returns 1 / (1 + e**-a) (the sigmoid).
func (a Array) Logistic() Array { return unary(ir.Logistic, a, true, nil) }

// Where chooses x where cond is true and y elsewhere, elementwise (one
// select_n equation: `select_n cond y x`). cond, x and y broadcast together;
// each may be an Array or a Go number.
func Where(cond, x, y any) Array {
	c, a, b := asArray(cond), asArray(x), asArray(y)
	if c.Dtype() != Bool {
		c = c.Ne(0)
	}
	dt, weak := promote(a.val().aval, b.val().aval)
	a, b = convertTo(a, dt, weak), convertTo(b, dt, weak)
	shape := broadcastShapes("Where", broadcastShapes("Where", c.val().aval.Shape, a.val().aval.Shape), b.val().aval.Shape)
	c, a, b = broadcastTo(c, shape), broadcastTo(a, shape), broadcastTo(b, shape)
	out := ir.Aval{Shape: shape, DType: dt, Weak: weak}
	return bind(ir.SelectN, nil, []ir.Aval{out}, c, b, a)[0]
}
