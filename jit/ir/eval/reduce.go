package eval

import (
	"fmt"
	"math"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// applyReduce evaluates reduce_sum, reduce_max and reduce_min over axes.
// Float sums accumulate in float64 and round once; max/min propagate NaN;
// the max of nothing is -inf (the smallest integer, false), the min +inf
// (the largest integer, true).
func applyReduce(prim string, params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	axes, err := intsParam(params, "axes", false)
	if err != nil {
		return nil, err
	}
	if err := checkAxes("axes", axes, len(x.Shape)); err != nil {
		return nil, err
	}
	var shape []int
	for d, n := range x.Shape {
		if !slices.Contains(axes, d) {
			shape = append(shape, n)
		}
	}
	// dst[i] is the output element that input element i reduces into.
	ostr := rowMajorStrides(shape)
	maps := make([][]int, len(x.Shape))
	k := 0
	for d, n := range x.Shape {
		if slices.Contains(axes, d) {
			maps[d] = make([]int, n)
		} else {
			maps[d] = linearMap(n, 0, 1, ostr[k])
			k++
		}
	}
	dst := combine(x.Shape, maps)
	out := ir.NewBuffer(x.DType, shape)
	switch src := x.Data.(type) {
	case []float32:
		f := make([]float64, len(src))
		for i, v := range src {
			f[i] = float64(v)
		}
		mapInto(out.Data.([]float32), reduceFloat(prim, f, dst, out.Len()), rounder(x.DType))
	case []float64:
		copy(out.Data.([]float64), reduceFloat(prim, src, dst, out.Len()))
	case []int32:
		reduceInt(prim, out.Data.([]int32), src, dst, math.MinInt32, math.MaxInt32)
	case []int64:
		reduceInt(prim, out.Data.([]int64), src, dst, math.MinInt64, math.MaxInt64)
	case []bool:
		if prim == ir.ReduceSum {
			return nil, notDefined(x.DType)
		}
		acc := out.Data.([]bool)
		for i := range acc {
			acc[i] = prim == ir.ReduceMin
		}
		for i, v := range src {
			if prim == ir.ReduceMax {
				acc[dst[i]] = acc[dst[i]] || v
			} else {
				acc[dst[i]] = acc[dst[i]] && v
			}
		}
	default:
		return nil, fmt.Errorf("unexpected data %T", x.Data)
	}
	return out, nil
}

// reduceFloat reduces src into n float64 accumulators (src[i] goes to dst[i]).
func reduceFloat(prim string, src []float64, dst []int, n int) []float64 {
	acc := make([]float64, n)
	switch prim {
	case ir.ReduceSum:
		for i, v := range src {
			acc[dst[i]] += v
		}
	case ir.ReduceMax, ir.ReduceMin:
		f := floatBinary(ir.Max)
		init := math.Inf(-1)
		if prim == ir.ReduceMin {
			f, init = floatBinary(ir.Min), math.Inf(1)
		}
		for i := range acc {
			acc[i] = init
		}
		for i, v := range src {
			acc[dst[i]] = f(acc[dst[i]], v)
		}
	}
	return acc
}

// reduceInt reduces src into acc (src[i] goes to acc[dst[i]]), wrapping sums.
func reduceInt[T int32 | int64](prim string, acc, src []T, dst []int, minV, maxV T) {
	switch prim {
	case ir.ReduceSum:
		for i, v := range src {
			acc[dst[i]] += v
		}
	case ir.ReduceMax:
		for i := range acc {
			acc[i] = minV
		}
		for i, v := range src {
			acc[dst[i]] = max(acc[dst[i]], v)
		}
	case ir.ReduceMin:
		for i := range acc {
			acc[i] = maxV
		}
		for i, v := range src {
			acc[dst[i]] = min(acc[dst[i]], v)
		}
	}
}
