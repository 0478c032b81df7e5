package cpu

import (
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// Integer and bool kernels, with the reference evaluator's semantics:
// wrapping arithmetic, division truncating toward zero, x/0 = -1, x%0 = x,
// integer pow by repeated squaring; bool max is or and min is and.

// unaryOp builds the op of a unary primitive.
func unaryOp(e *ir.Eqn, ins []loc, dts []ir.DType, dst loc) (op, error) {
	if len(ins) != 1 || dts[0] != e.Out[0].Aval.DType {
		return nil, errUnfusable
	}
	y := 0
	if e.Prim == ir.IntegerPow {
		v, ok := e.Params["y"].(int)
		if !ok {
			return nil, errUnfusable
		}
		y = v
	}
	a, dt := ins[0], dts[0]
	var o op
	switch a.c {
	case cF32, cF64:
		o = floatUnaryOp(e.Prim, y, a, dst, dt)
	case cI32:
		if f := intUnary[int32](e.Prim, y); f != nil {
			o = un(regI32, regI32, a.reg, dst.reg, func(_ *frame, d, a []int32) { f(d, a) })
		}
	case cI64:
		if f := intUnary[int64](e.Prim, y); f != nil {
			o = un(regI64, regI64, a.reg, dst.reg, func(_ *frame, d, a []int64) { f(d, a) })
		}
	case cBool:
		if e.Prim == ir.Not {
			o = un(regB, regB, a.reg, dst.reg, func(_ *frame, d, a []bool) {
				d = d[:len(a)]
				for i, v := range a {
					d[i] = !v
				}
			})
		}
	}
	if o == nil {
		return nil, errUnfusable
	}
	return o, nil
}

// intUnary returns the kernel of a unary primitive on integers, or nil.
func intUnary[T int32 | int64](prim string, y int) func(d, a []T) {
	switch prim {
	case ir.Neg, ir.Sign:
		return arithUnary[T](prim)
	case ir.Abs:
		return func(d, a []T) {
			d = d[:len(a)]
			for i, v := range a {
				if v < 0 {
					v = -v
				}
				d[i] = v
			}
		}
	case ir.Not:
		return func(d, a []T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = ^v
			}
		}
	case ir.IntegerPow:
		if y < 0 {
			return nil // eval reports the error
		}
		return func(d, a []T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = eval.IntPow(v, int64(y))
			}
		}
	}
	return nil
}

// binaryOp builds the op of an arithmetic or logical binary primitive.
func binaryOp(prim string, ins []loc, dts []ir.DType, dst loc) (op, error) {
	if len(ins) != 2 || dts[0] != dts[1] {
		return nil, errUnfusable
	}
	a, b, dt := ins[0], ins[1], dts[0]
	var o op
	switch a.c {
	case cF32, cF64:
		o = floatBinaryOp(prim, a, b, dst, dt)
	case cI32:
		if f := intBinary[int32](prim); f != nil {
			o = bin(regI32, regI32, a.reg, b.reg, dst.reg, func(_ *frame, d, a, b []int32) { f(d, a, b) })
		}
	case cI64:
		if f := intBinary[int64](prim); f != nil {
			o = bin(regI64, regI64, a.reg, b.reg, dst.reg, func(_ *frame, d, a, b []int64) { f(d, a, b) })
		}
	case cBool:
		if f := boolBinary(prim); f != nil {
			o = bin(regB, regB, a.reg, b.reg, dst.reg, func(_ *frame, d, a, b []bool) { f(d, a, b) })
		}
	}
	if o == nil {
		return nil, errUnfusable
	}
	return o, nil
}

// intBinary returns the kernel of a binary primitive on integers, or nil.
func intBinary[T int32 | int64](prim string) func(d, a, b []T) {
	switch prim {
	case ir.Add, ir.Sub, ir.Mul, ir.Max, ir.Min:
		return arithBinary[T](prim)
	case ir.Div:
		return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = eval.IntDiv(a[i], b[i])
			}
		}
	case ir.Rem:
		return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = eval.IntRem(a[i], b[i])
			}
		}
	case ir.Pow:
		return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = eval.IntPow(a[i], int64(b[i]))
			}
		}
	case ir.And:
		return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] & b[i]
			}
		}
	case ir.Or:
		return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] | b[i]
			}
		}
	}
	return nil
}

// boolBinary returns the kernel of and/or (and min/max) on bools, or nil.
func boolBinary(prim string) func(d, a, b []bool) {
	switch prim {
	case ir.And, ir.Min:
		return func(d, a, b []bool) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] && b[i]
			}
		}
	case ir.Or, ir.Max:
		return func(d, a, b []bool) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] || b[i]
			}
		}
	}
	return nil
}
