package cpu

import (
	"github.com/jitlint/jitlint/jit/ir"
)

// Op builders: each closure reads its registers' first n elements and
// writes its destination register. The element loops are typed; the only
// dispatch happens once per block and op.

// un builds a one-operand op.
func un[A, D any](ga func(*frame) [][]A, gd func(*frame) [][]D, a, d int, f func(fr *frame, d []D, a []A)) op {
	return func(fr *frame, n int) { f(fr, gd(fr)[d][:n], ga(fr)[a][:n]) }
}

// bin builds a two-operand op.
func bin[A, D any](ga func(*frame) [][]A, gd func(*frame) [][]D, a, b, d int, f func(fr *frame, d []D, a, b []A)) op {
	return func(fr *frame, n int) { r := ga(fr); f(fr, gd(fr)[d][:n], r[a][:n], r[b][:n]) }
}

// tri builds a three-operand op (clamp).
func tri[A any](ga func(*frame) [][]A, a, b, c, d int, f func(d, a, b, c []A)) op {
	return func(fr *frame, n int) { r := ga(fr); f(r[d][:n], r[a][:n], r[b][:n], r[c][:n]) }
}

// opCost is the estimated per-element cost of prim, used to decide when a
// kernel is worth splitting over goroutines.
func opCost(prim string) int {
	if ir.IsTranscendental(prim) {
		return 16
	}
	return 1
}

// makeOp builds the op of one fusible equation. ins are the operands'
// registers and dts their dtypes; dst is the result register.
func makeOp(e *ir.Eqn, ins []loc, dts []ir.DType, dst loc) (op, int, error) {
	outDT := e.Out[0].Aval.DType
	cost := opCost(e.Prim)
	var o op
	var err error
	switch {
	case ir.IsCompare(e.Prim):
		o, err = compareOp(e.Prim, ins, dts, dst)
	case ir.IsUnary(e.Prim):
		o, err = unaryOp(e, ins, dts, dst)
	case ir.IsBinary(e.Prim):
		o, err = binaryOp(e.Prim, ins, dts, dst)
	case e.Prim == ir.SelectN:
		o, err = selectOp(ins, dts, dst)
	case e.Prim == ir.Clamp:
		o, err = clampOp(ins, dts, dst)
	case e.Prim == ir.ConvertElementType:
		if len(ins) != 1 {
			return nil, 0, errUnfusable
		}
		o, err = convertOp(ins[0], dts[0], dst, outDT)
	case e.Prim == ir.BroadcastInDim:
		if len(ins) != 1 || dts[0] != outDT {
			return nil, 0, errUnfusable
		}
		o, err = copyOp(ins[0], dst), nil
	case e.Prim == ir.Iota:
		o, err = iotaOp(e, dst, outDT)
	default:
		err = errUnfusable
	}
	return o, cost, err
}

// sameTypes reports whether all operands have dtype dt.
func sameTypes(dts []ir.DType, dt ir.DType) bool {
	for _, d := range dts {
		if d != dt {
			return false
		}
	}
	return true
}

// copyOp copies a register.
func copyOp(a, d loc) op {
	switch a.c {
	case cF32:
		return un(regF32, regF32, a.reg, d.reg, copyK[float32])
	case cF64:
		return un(regF64, regF64, a.reg, d.reg, copyK[float64])
	case cI32:
		return un(regI32, regI32, a.reg, d.reg, copyK[int32])
	case cI64:
		return un(regI64, regI64, a.reg, d.reg, copyK[int64])
	}
	return un(regB, regB, a.reg, d.reg, copyK[bool])
}

// copyK copies a block.
func copyK[T any](_ *frame, d, a []T) { copy(d, a) }
