package cpu

import (
	"math"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

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
