package gpu

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit/ir"
)

// elementwise emits one elementwise equation on register values and returns
// its result. Broadcasts of a scalar (fused into elementwise groups) pass
// their operand through.
func (k *kernel) elementwise(e *ir.Eqn, in []value) (value, error) {
	out := e.Out[0].Aval.DType
	switch {
	case e.Prim == ir.BroadcastInDim || e.Prim == ir.Reshape || e.Prim == ir.Squeeze:
		return in[0], nil
	case e.Prim == ir.IntegerPow:
		y, ok := e.Params["y"].(int)
		if !ok {
			return value{}, fmt.Errorf("integer_pow: parameter y is %T, want int", e.Params["y"])
		}
		if in[0].t == ir.Bool {
			return value{}, fmt.Errorf("integer_pow on bool is not supported")
		}
		return k.integerPow(in[0], y), nil
	case ir.IsCompare(e.Prim):
		return k.compare(e.Prim, in[0], in[1]), nil
	case ir.IsUnary(e.Prim):
		return k.unary(e.Prim, in[0])
	case ir.IsBinary(e.Prim):
		return k.binary(e.Prim, in[0], in[1])
	case e.Prim == ir.SelectN:
		return k.selectN(in[0], in[1:]), nil
	case e.Prim == ir.Clamp:
		lo, err := k.binary(ir.Max, in[1], in[0])
		if err != nil {
			return value{}, err
		}
		return k.binary(ir.Min, lo, in[2])
	case e.Prim == ir.ConvertElementType:
		return k.convert(in[0], out), nil
	}
	return value{}, fmt.Errorf("%s is not an elementwise primitive", e.Prim)
}

// unary emits a one-operand primitive.
func (k *kernel) unary(prim string, x value) (value, error) {
	t := x.t
	r := k.reg(regClass(t))
	switch prim {
	case ir.Neg:
		if t == ir.Bool {
			break
		}
		k.op("neg%s %s, %s", ptxType(t), r, x.reg)
		return value{r, t}, nil
	case ir.Abs:
		if t == ir.Bool {
			break
		}
		k.op("abs%s %s, %s", ptxType(t), r, x.reg)
		return value{r, t}, nil
	case ir.Not:
		if t.IsFloat() {
			break
		}
		k.op("not%s %s, %s", bitType(t), r, x.reg)
		return value{r, t}, nil
	case ir.Sign:
		if t == ir.Bool {
			break
		}
		zero, one := k.constant(t, 0), k.constant(t, 1)
		pos := k.setp("gt", ptxType(t), x.reg, zero.reg)
		neg := k.setp("lt", ptxType(t), x.reg, zero.reg)
		a, b := k.reg(regClass(t)), k.reg(regClass(t))
		k.op("selp%s %s, %s, %s, %s", ptxType(t), a, one.reg, zero.reg, pos)
		k.op("selp%s %s, %s, %s, %s", ptxType(t), b, one.reg, zero.reg, neg)
		k.op("sub%s %s, %s, %s", arith(t), r, a, b)
		if t.IsFloat() { // sign(NaN) = NaN
			n := k.reg(regClass(t))
			k.op("selp%s %s, %s, %s, %s", ptxType(t), n, x.reg, r, k.setp("nan", ptxType(t), x.reg, x.reg))
			r = n
		}
		return value{r, t}, nil
	case ir.Floor, ir.Ceil:
		if !t.IsFloat() {
			return x, nil
		}
		mode := ".rmi"
		if prim == ir.Ceil {
			mode = ".rpi"
		}
		k.op("cvt%s%s%s %s, %s", mode, ptxType(t), ptxType(t), r, x.reg)
		return value{r, t}, nil
	case ir.Sqrt:
		if !t.IsFloat() {
			break
		}
		k.op("sqrt.rn%s %s, %s", ptxType(t), r, x.reg)
		return value{r, t}, nil
	case ir.Sin, ir.Cos, ir.Tan, ir.Tanh, ir.Exp, ir.Log, ir.Log1p, ir.Expm1, ir.Logistic, ir.Rsqrt:
		if !t.IsFloat() {
			break
		}
		return k.transcendental(prim, x), nil
	}
	return value{}, fmt.Errorf("%s on %v is not supported by the gpu backend", prim, t)
}

// binary emits a two-operand arithmetic or logical primitive.
func (k *kernel) binary(prim string, a, b value) (value, error) {
	t := a.t
	r := k.reg(regClass(t))
	pt := ptxType(t)
	switch prim {
	case ir.Add, ir.Sub, ir.Mul:
		if t == ir.Bool {
			break
		}
		mode := arith(t)
		if prim == ir.Mul && !t.IsFloat() {
			mode = ".lo" + pt
		}
		k.op("%s%s %s, %s, %s", prim, mode, r, a.reg, b.reg)
		return value{r, t}, nil
	case ir.Div:
		if t == ir.Bool {
			break
		}
		k.op("div%s %s, %s, %s", arith(t), r, a.reg, b.reg)
		return value{r, t}, nil
	case ir.Rem:
		if t == ir.Bool {
			break
		}
		if !t.IsFloat() {
			k.op("rem%s %s, %s, %s", pt, r, a.reg, b.reg)
			return value{r, t}, nil
		}
		x, y := k.toF64(a), k.toF64(b)
		q := k.f64op("cvt.rzi.f64.f64", k.f64op("div.rn.f64", x, y))
		return k.fromF64(k.f64op("fma.rn.f64", k.f64op("neg.f64", q), y, x), t), nil
	case ir.Pow:
		if !t.IsFloat() {
			break
		}
		return k.fromF64(k.pow64(k.toF64(a), k.toF64(b)), t), nil
	case ir.Max, ir.Min:
		if t == ir.Bool {
			op := "or"
			if prim == ir.Min {
				op = "and"
			}
			k.op("%s.pred %s, %s, %s", op, r, a.reg, b.reg)
			return value{r, t}, nil
		}
		k.op("%s%s %s, %s, %s", prim, pt, r, a.reg, b.reg)
		if t.IsFloat() { // PTX max/min return the other operand for NaN; lax propagates NaN
			n := k.reg("%p")
			k.op("setp.nan%s %s, %s, %s", pt, n, a.reg, b.reg)
			m := k.reg(regClass(t))
			k.op("selp%s %s, %s, %s, %s", pt, m, immediate(t, math.NaN()), r, n)
			r = m
		}
		return value{r, t}, nil
	case ir.And, ir.Or:
		if t.IsFloat() {
			break
		}
		k.op("%s%s %s, %s, %s", prim, bitType(t), r, a.reg, b.reg)
		return value{r, t}, nil
	}
	return value{}, fmt.Errorf("%s on %v is not supported by the gpu backend", prim, t)
}

// compare emits a comparison into a predicate. Floats compare ordered (NaN
// gives false) except ne, which is true for NaN, as in IEEE and XLA.
func (k *kernel) compare(prim string, a, b value) value {
	if a.t == ir.Bool {
		a, b = k.convert(a, ir.Int32), k.convert(b, ir.Int32)
	}
	cmp := prim
	if prim == ir.Ne && a.t.IsFloat() {
		cmp = "neu"
	}
	return value{k.setp(cmp, ptxType(a.t), a.reg, b.reg), ir.Bool}
}

// selectN emits select_n(pred, cases...): cases[pred].
func (k *kernel) selectN(pred value, cases []value) value {
	cur := cases[0]
	for i := 1; i < len(cases); i++ {
		var p string
		if pred.t == ir.Bool {
			p = pred.reg
		} else {
			p = k.setp("ge", ptxType(pred.t), pred.reg, fmt.Sprint(i))
		}
		cur = k.pick(p, cases[i], cur)
	}
	return cur
}

// pick returns p ? a : b for values of one dtype.
func (k *kernel) pick(p string, a, b value) value {
	r := k.reg(regClass(a.t))
	if a.t == ir.Bool {
		x, y := k.reg("%p"), k.reg("%p")
		k.op("and.pred %s, %s, %s", x, p, a.reg)
		k.op("and.pred %s, %s, %s", y, k.notPred(p), b.reg)
		k.op("or.pred %s, %s, %s", r, x, y)
	} else {
		k.op("selp%s %s, %s, %s, %s", ptxType(a.t), r, a.reg, b.reg, p)
	}
	return value{r, a.t}
}

// convert emits convert_element_type: floats to ints truncate toward zero,
// ints to floats round to nearest, bools are 0/1.
func (k *kernel) convert(x value, to ir.DType) value {
	from := x.t
	if from == to {
		return x
	}
	r := k.reg(regClass(to))
	switch {
	case from == ir.Bool:
		one, zero := k.constant(to, 1), k.constant(to, 0)
		k.op("selp%s %s, %s, %s, %s", ptxType(to), r, one.reg, zero.reg, x.reg)
	case to == ir.Bool:
		zero := k.constant(from, 0)
		cmp := "ne"
		if from.IsFloat() {
			cmp = "neu"
		}
		k.op("setp.%s%s %s, %s, %s", cmp, ptxType(from), r, x.reg, zero.reg)
	case from.IsFloat() && to.IsFloat():
		mode := ""
		if to == ir.Float32 {
			mode = ".rn"
		}
		k.op("cvt%s%s%s %s, %s", mode, ptxType(to), ptxType(from), r, x.reg)
	case from.IsFloat():
		k.op("cvt.rzi%s%s %s, %s", ptxType(to), ptxType(from), r, x.reg)
	case to.IsFloat():
		k.op("cvt.rn%s%s %s, %s", ptxType(to), ptxType(from), r, x.reg)
	default:
		k.op("cvt%s%s %s, %s", ptxType(to), ptxType(from), r, x.reg)
	}
	return value{r, to}
}

// integerPow emits x**y by repeated squaring; negative y takes the
// reciprocal (floats) as lax.integer_pow does.
func (k *kernel) integerPow(x value, y int) value {
	n := y
	if n < 0 {
		n = -n
	}
	if n == 0 {
		return k.constant(x.t, 1)
	}
	var acc value
	base := x
	first := true
	for n > 0 {
		if n&1 == 1 {
			if first {
				acc, first = base, false
			} else {
				acc = k.mul(acc, base)
			}
		}
		n >>= 1
		if n > 0 {
			base = k.mul(base, base)
		}
	}
	if y < 0 && x.t.IsFloat() {
		one := k.constant(x.t, 1)
		r := k.reg(regClass(x.t))
		k.op("div.rn%s %s, %s, %s", ptxType(x.t), r, one.reg, acc.reg)
		acc = value{r, x.t}
	}
	return acc
}

// mul multiplies two values of one numeric (not bool) dtype.
func (k *kernel) mul(a, b value) value {
	r, _ := k.binary(ir.Mul, a, b) // cannot fail: numeric dtypes only
	return r
}

// toF64 converts a float value to an f64 register.
func (k *kernel) toF64(v value) string {
	if v.t == ir.Float64 {
		return v.reg
	}
	return k.f64op("cvt.f64.f32", v.reg)
}

// arith is the rounding-qualified type for add/sub/div on dtype t.
func arith(t ir.DType) string {
	if t.IsFloat() {
		return ".rn" + ptxType(t)
	}
	return ptxType(t)
}

// bitType is the type of logical operations on dtype t.
func bitType(t ir.DType) string {
	switch t {
	case ir.Bool:
		return ".pred"
	case ir.Int64:
		return ".b64"
	}
	return ".b32"
}
