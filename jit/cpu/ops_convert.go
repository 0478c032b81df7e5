package cpu

import (
	"cmp"
	"math"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
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

// maxCases is the most select_n cases a fused kernel handles.
const maxCases = 8

// selectOp builds select_n: d[i] = cases[pred[i]][i], the predicate a bool
// (two cases at most) or an integer clamped into range.
func selectOp(ins []loc, dts []ir.DType, dst loc) (op, error) {
	if len(ins) < 2 || len(ins)-1 > maxCases || !sameTypes(dts[2:], dts[1]) {
		return nil, errUnfusable
	}
	p, cases := ins[0], ins[1:]
	if p.c == cBool && len(cases) > 2 || p.c != cBool && p.c != cI32 && p.c != cI64 {
		return nil, errUnfusable
	}
	switch cases[0].c {
	case cF32:
		return selectFor(regF32, p, cases, dst), nil
	case cF64:
		return selectFor(regF64, p, cases, dst), nil
	case cI32:
		return selectFor(regI32, p, cases, dst), nil
	case cI64:
		return selectFor(regI64, p, cases, dst), nil
	}
	return selectFor(regB, p, cases, dst), nil
}

// selectFor builds select_n over cases of one storage type.
func selectFor[T any](g func(*frame) [][]T, p loc, cases []loc, dst loc) op {
	regs := make([]int, len(cases))
	for i, c := range cases {
		regs[i] = c.reg
	}
	last := len(cases) - 1
	switch p.c {
	case cBool:
		return func(fr *frame, n int) {
			r := g(fr)
			d, c0, c1, pr := r[dst.reg][:n], r[regs[0]][:n], r[regs[last]][:n], fr.b[p.reg][:n]
			for i := range d {
				if pr[i] {
					d[i] = c1[i]
				} else {
					d[i] = c0[i]
				}
			}
		}
	case cI32:
		return func(fr *frame, n int) {
			pickInt(g(fr), dst.reg, regs, fr.i32[p.reg][:n], n)
		}
	}
	return func(fr *frame, n int) {
		pickInt(g(fr), dst.reg, regs, fr.i64[p.reg][:n], n)
	}
}

// pickInt sets r[d][i] = r[cases[k]][i] with k = pred[i] clamped into range.
func pickInt[T any, P int32 | int64](r [][]T, d int, cases []int, pred []P, n int) {
	var cs [maxCases][]T
	for k, c := range cases {
		cs[k] = r[c][:n]
	}
	last := P(len(cases) - 1)
	dst := r[d][:n]
	for i := range dst {
		k := max(0, min(pred[i], last))
		dst[i] = cs[k][i]
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

// convertOp builds convert_element_type from dtype sdt to ddt with the
// evaluator's semantics: floats to ints truncate and saturate (NaN gives
// 0), ints wrap, anything to bool is != 0, bools are 0/1.
func convertOp(a loc, sdt ir.DType, d loc, ddt ir.DType) (op, error) {
	switch {
	case sdt == ddt:
		return copyOp(a, d), nil
	case a.c == cF32:
		// Widen the block to float64, then store it as the target type.
		to := fromF64(d, ddt)
		return func(fr *frame, n int) {
			t := fr.tmp[2][:n]
			widen(t, fr.f32[a.reg][:n])
			to(fr, t)
		}, nil
	case a.c == cF64:
		to := fromF64(d, ddt)
		return func(fr *frame, n int) { to(fr, fr.f64[a.reg][:n]) }, nil
	case a.c == cI32:
		return intConvert(regI32, a, d, ddt), nil
	case a.c == cI64:
		return intConvert(regI64, a, d, ddt), nil
	}
	// bool to a number: 0 or 1.
	switch d.c {
	case cF32:
		return un(regB, regF32, a.reg, d.reg, boolTo[float32]), nil
	case cF64:
		return un(regB, regF64, a.reg, d.reg, boolTo[float64]), nil
	case cI32:
		return un(regB, regI32, a.reg, d.reg, boolTo[int32]), nil
	}
	return un(regB, regI64, a.reg, d.reg, boolTo[int64]), nil
}

// boolTo converts bools to 0/1.
func boolTo[T float32 | float64 | int32 | int64](_ *frame, d []T, a []bool) {
	d = d[:len(a)]
	for i, v := range a {
		d[i] = 0
		if v {
			d[i] = 1
		}
	}
}

// fromF64 returns the store of a float64 block into register d of dtype dt.
func fromF64(d loc, dt ir.DType) func(fr *frame, t []float64) {
	switch d.c {
	case cF32:
		store := storeF32(dt)
		return func(fr *frame, t []float64) { store(fr.f32[d.reg][:len(t)], t) }
	case cF64:
		return func(fr *frame, t []float64) { copy(fr.f64[d.reg], t) }
	case cI32:
		return func(fr *frame, t []float64) {
			o := fr.i32[d.reg][:len(t)]
			for i, v := range t {
				o[i] = int32(eval.Saturate(v, math.MinInt32, math.MaxInt32))
			}
		}
	case cI64:
		return func(fr *frame, t []float64) {
			o := fr.i64[d.reg][:len(t)]
			for i, v := range t {
				o[i] = eval.Saturate(v, math.MinInt64, math.MaxInt64)
			}
		}
	}
	return func(fr *frame, t []float64) {
		o := fr.b[d.reg][:len(t)]
		for i, v := range t {
			o[i] = v != 0
		}
	}
}

// intConvert converts an integer register to dtype dt.
func intConvert[T int32 | int64](g func(*frame) [][]T, a, d loc, dt ir.DType) op {
	switch d.c {
	case cF32:
		if dt == ir.Float32 {
			return un(g, regF32, a.reg, d.reg, func(_ *frame, d []float32, a []T) {
				d = d[:len(a)]
				for i, v := range a {
					d[i] = float32(int64(v))
				}
			})
		}
		return un(g, regF32, a.reg, d.reg, func(_ *frame, d []float32, a []T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = ir.RoundTo(dt, float64(v))
			}
		})
	case cF64:
		return un(g, regF64, a.reg, d.reg, func(_ *frame, d []float64, a []T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = float64(v)
			}
		})
	case cI32:
		return un(g, regI32, a.reg, d.reg, func(_ *frame, d []int32, a []T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = int32(v)
			}
		})
	case cI64:
		return un(g, regI64, a.reg, d.reg, func(_ *frame, d []int64, a []T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = int64(v)
			}
		})
	}
	return un(g, regB, a.reg, d.reg, func(_ *frame, d []bool, a []T) {
		d = d[:len(a)]
		for i, v := range a {
			d[i] = v != 0
		}
	})
}

// iotaOp builds iota: each element's index along the parameter dimension.
func iotaOp(e *ir.Eqn, d loc, dt ir.DType) (op, error) {
	dim, ok := e.Params["dimension"].(int)
	shape := e.Out[0].Aval.Shape
	if !ok || dim < 0 || dim >= len(shape) || dt == ir.Bool || len(e.In) != 0 {
		return nil, errUnfusable
	}
	stride := ir.NumElements(shape[dim+1:])
	size := shape[dim]
	idx := func(j int) int64 { return int64(j / stride % size) }
	switch d.c {
	case cF32:
		return func(fr *frame, n int) {
			o := fr.f32[d.reg][:n]
			for i := range o {
				o[i] = ir.RoundTo(dt, float64(idx(fr.lo+i)))
			}
		}, nil
	case cF64:
		return func(fr *frame, n int) {
			o := fr.f64[d.reg][:n]
			for i := range o {
				o[i] = float64(idx(fr.lo + i))
			}
		}, nil
	case cI32:
		return func(fr *frame, n int) {
			o := fr.i32[d.reg][:n]
			for i := range o {
				o[i] = int32(idx(fr.lo + i))
			}
		}, nil
	}
	return func(fr *frame, n int) {
		o := fr.i64[d.reg][:n]
		for i := range o {
			o[i] = idx(fr.lo + i)
		}
	}, nil
}
