package eval

import (
	"math"

	"github.com/jitlint/jitlint/jit/ir"
)

// applyConvert evaluates convert_element_type: floats to integers truncate
// toward zero and saturate (NaN → 0), bools convert to 0/1, numbers to bool
// are != 0, integers to narrower integers wrap, and floats round to the
// target precision.
func applyConvert(params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 1); err != nil {
		return nil, err
	}
	dt, err := dtypeParam(params, "new_dtype", false)
	if err != nil {
		return nil, err
	}
	return convert(args[0], dt), nil
}

// convert returns x converted to dt (a new buffer).
func convert(x *ir.Buffer, dt ir.DType) *ir.Buffer {
	out := ir.NewBuffer(dt, x.Shape)
	switch src := x.Data.(type) {
	case []float32:
		f := make([]float64, len(src))
		for i, v := range src {
			f[i] = float64(v)
		}
		fromFloats(out, f)
	case []float64:
		fromFloats(out, src)
	case []int32:
		n := make([]int64, len(src))
		for i, v := range src {
			n[i] = int64(v)
		}
		fromInts(out, n)
	case []int64:
		fromInts(out, src)
	case []bool:
		n := make([]int64, len(src))
		for i, v := range src {
			if v {
				n[i] = 1
			}
		}
		fromInts(out, n)
	}
	return out
}

// fromFloats stores float64 values into out with convert semantics.
func fromFloats(out *ir.Buffer, src []float64) {
	switch d := out.Data.(type) {
	case []float32:
		mapInto(d, src, rounder(out.DType))
	case []float64:
		copy(d, src)
	case []int32:
		mapInto(d, src, func(v float64) int32 { return int32(Saturate(v, math.MinInt32, math.MaxInt32)) })
	case []int64:
		mapInto(d, src, func(v float64) int64 { return Saturate(v, math.MinInt64, math.MaxInt64) })
	case []bool:
		mapInto(d, src, func(v float64) bool { return v != 0 })
	}
}

// fromInts stores int64 values into out with convert semantics.
func fromInts(out *ir.Buffer, src []int64) {
	switch d := out.Data.(type) {
	case []float32:
		if out.DType == ir.Float32 {
			mapInto(d, src, func(v int64) float32 { return float32(v) })
		} else {
			mapInto(d, src, func(v int64) float32 { return ir.RoundTo(out.DType, float64(v)) })
		}
	case []float64:
		mapInto(d, src, func(v int64) float64 { return float64(v) })
	case []int32:
		mapInto(d, src, func(v int64) int32 { return int32(v) })
	case []int64:
		copy(d, src)
	case []bool:
		mapInto(d, src, func(v int64) bool { return v != 0 })
	}
}
