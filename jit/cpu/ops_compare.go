package cpu

import (
	"cmp"

	"github.com/jitlint/jitlint/jit/ir"
)

// compareOp builds a comparison (bool result; IEEE semantics for NaN).
func compareOp(prim string, ins []loc, dts []ir.DType, dst loc) (op, error) {
	if len(ins) != 2 || dts[0] != dts[1] {
		return nil, errUnfusable
	}
	a, b := ins[0], ins[1]
	switch a.c {
	case cF32:
		return bin(regF32, regB, a.reg, b.reg, dst.reg, compareK[float32](prim)), nil
	case cF64:
		return bin(regF64, regB, a.reg, b.reg, dst.reg, compareK[float64](prim)), nil
	case cI32:
		return bin(regI32, regB, a.reg, b.reg, dst.reg, compareK[int32](prim)), nil
	case cI64:
		return bin(regI64, regB, a.reg, b.reg, dst.reg, compareK[int64](prim)), nil
	}
	c := compareK[int8](prim)
	return bin(regB, regB, a.reg, b.reg, dst.reg, func(fr *frame, d []bool, a, b []bool) {
		// false < true: compare as 0/1 through a small stack buffer.
		var x, y [64]int8
		for lo := 0; lo < len(d); lo += len(x) {
			hi := min(len(d), lo+len(x))
			for i := lo; i < hi; i++ {
				x[i-lo], y[i-lo] = b2i(a[i]), b2i(b[i])
			}
			c(fr, d[lo:hi], x[:hi-lo], y[:hi-lo])
		}
	}), nil
}

// b2i converts a bool to 0/1.
func b2i(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

// compareK returns the kernel of a comparison.
func compareK[T cmp.Ordered](prim string) func(_ *frame, d []bool, a, b []T) {
	switch prim {
	case ir.Gt:
		return func(_ *frame, d []bool, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] > b[i]
			}
		}
	case ir.Ge:
		return func(_ *frame, d []bool, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] >= b[i]
			}
		}
	case ir.Lt:
		return func(_ *frame, d []bool, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] < b[i]
			}
		}
	case ir.Le:
		return func(_ *frame, d []bool, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] <= b[i]
			}
		}
	case ir.Eq:
		return func(_ *frame, d []bool, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] == b[i]
			}
		}
	}
	return func(_ *frame, d []bool, a, b []T) {
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			d[i] = a[i] != b[i]
		}
	}
}

// clampOp builds clamp(lo, x, hi) = min(max(x, lo), hi), per element.
func clampOp(ins []loc, dts []ir.DType, dst loc) (op, error) {
	if len(ins) != 3 || !sameTypes(dts, dts[1]) {
		return nil, errUnfusable
	}
	lo, x, hi := ins[0].reg, ins[1].reg, ins[2].reg
	switch ins[1].c {
	case cF32:
		round := blockRounder(dts[1])
		return tri(regF32, lo, x, hi, dst.reg, func(d, lo, x, hi []float32) { clampK(d, lo, x, hi); round(d) }), nil
	case cF64:
		return tri(regF64, lo, x, hi, dst.reg, clampK[float64]), nil
	case cI32:
		return tri(regI32, lo, x, hi, dst.reg, clampK[int32]), nil
	case cI64:
		return tri(regI64, lo, x, hi, dst.reg, clampK[int64]), nil
	}
	return tri(regB, lo, x, hi, dst.reg, func(d, lo, x, hi []bool) {
		for i := range d {
			d[i] = (x[i] || lo[i]) && hi[i]
		}
	}), nil
}

// clampK is clamp with the builtin min/max (NaN propagating).
func clampK[T cmp.Ordered](d, lo, x, hi []T) {
	for i := range d {
		d[i] = min(max(x[i], lo[i]), hi[i])
	}
}
