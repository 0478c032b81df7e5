package eval

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// applyDotGeneral evaluates dot_general with arbitrary contracting and
// batch dimensions. Output dimensions are (batch, lhs free, rhs free), as in
// XLA; the output dtype is preferred_element_type when set, else the
// operands'. Floats accumulate in float64 and integers in int64 (wrapping),
// then convert once to the output dtype.
func applyDotGeneral(params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 2); err != nil {
		return nil, err
	}
	lhs, rhs := args[0], args[1]
	v, ok := params["dimension_numbers"]
	if !ok {
		return nil, fmt.Errorf("missing parameter dimension_numbers")
	}
	dims, ok := v.(ir.DotDims)
	if !ok {
		return nil, fmt.Errorf("parameter dimension_numbers is %T, want ir.DotDims", v)
	}
	outDT, err := dtypeParam(params, "preferred_element_type", true)
	if err != nil {
		return nil, err
	}
	if lhs.DType != rhs.DType {
		return nil, fmt.Errorf("operand dtypes differ: %s and %s", lhs.DType, rhs.DType)
	}
	if outDT == ir.Invalid {
		outDT = lhs.DType
	}
	if len(dims.LhsContract) != len(dims.RhsContract) || len(dims.LhsBatch) != len(dims.RhsBatch) {
		return nil, fmt.Errorf("dimension numbers %+v pair unequal numbers of lhs and rhs dimensions", dims)
	}
	lFree, err := freeDims(lhs.Shape, dims.LhsContract, dims.LhsBatch)
	if err != nil {
		return nil, fmt.Errorf("lhs %v: %v", lhs.Shape, err)
	}
	rFree, err := freeDims(rhs.Shape, dims.RhsContract, dims.RhsBatch)
	if err != nil {
		return nil, fmt.Errorf("rhs %v: %v", rhs.Shape, err)
	}
	for i := range dims.LhsContract {
		if a, b := lhs.Shape[dims.LhsContract[i]], rhs.Shape[dims.RhsContract[i]]; a != b {
			return nil, fmt.Errorf("contracting dimensions lhs %d (size %d) and rhs %d (size %d) differ",
				dims.LhsContract[i], a, dims.RhsContract[i], b)
		}
	}
	for i := range dims.LhsBatch {
		if a, b := lhs.Shape[dims.LhsBatch[i]], rhs.Shape[dims.RhsBatch[i]]; a != b {
			return nil, fmt.Errorf("batch dimensions lhs %d (size %d) and rhs %d (size %d) differ",
				dims.LhsBatch[i], a, dims.RhsBatch[i], b)
		}
	}
	// Offsets of every batch, free and contracting index combination.
	lb, lbShape := offsets(lhs.Shape, dims.LhsBatch)
	rb, _ := offsets(rhs.Shape, dims.RhsBatch)
	lf, lfShape := offsets(lhs.Shape, lFree)
	rf, rfShape := offsets(rhs.Shape, rFree)
	lc, _ := offsets(lhs.Shape, dims.LhsContract)
	rc, _ := offsets(rhs.Shape, dims.RhsContract)
	shape := append(append(append([]int{}, lbShape...), lfShape...), rfShape...)
	n := len(lb) * len(lf) * len(rf)
	out := ir.NewBuffer(outDT, shape)
	if lhs.DType.IsFloat() {
		l, r := toFloats(lhs), toFloats(rhs)
		res := make([]float64, 0, n)
		for b := range lb {
			for _, i := range lf {
				for _, j := range rf {
					s := 0.0
					for k := range lc {
						s += l[lb[b]+i+lc[k]] * r[rb[b]+j+rc[k]]
					}
					res = append(res, s)
				}
			}
		}
		fromFloats(out, res)
		return out, nil
	}
	l, r := toInts(lhs), toInts(rhs)
	res := make([]int64, 0, n)
	for b := range lb {
		for _, i := range lf {
			for _, j := range rf {
				var s int64
				for k := range lc {
					s += l[lb[b]+i+lc[k]] * r[rb[b]+j+rc[k]]
				}
				res = append(res, s)
			}
		}
	}
	fromInts(out, res)
	return out, nil
}

// freeDims returns the dimensions of shape that are neither contracting nor
// batch, in order, after checking both lists.
func freeDims(shape, contract, batch []int) ([]int, error) {
	all := append(append([]int{}, contract...), batch...)
	if err := checkAxes("contracting and batch dimensions", all, len(shape)); err != nil {
		return nil, err
	}
	used := make([]bool, len(shape))
	for _, d := range all {
		used[d] = true
	}
	var free []int
	for d := range shape {
		if !used[d] {
			free = append(free, d)
		}
	}
	return free, nil
}

// offsets enumerates, in row-major order over the listed dimensions of
// shape, the data offset of each index combination; it also returns the
// sizes of those dimensions.
func offsets(shape, dims []int) ([]int, []int) {
	st := rowMajorStrides(shape)
	sub := make([]int, len(dims))
	maps := make([][]int, len(dims))
	for i, d := range dims {
		sub[i] = shape[d]
		maps[i] = linearMap(shape[d], 0, 1, st[d])
	}
	return combine(sub, maps), sub
}

// toFloats returns a float buffer's elements as float64.
func toFloats(b *ir.Buffer) []float64 {
	if d, ok := b.Data.([]float64); ok {
		return d
	}
	d := b.Data.([]float32)
	f := make([]float64, len(d))
	for i, v := range d {
		f[i] = float64(v)
	}
	return f
}

// toInts returns an integer or bool buffer's elements as int64.
func toInts(b *ir.Buffer) []int64 {
	out := make([]int64, b.Len())
	switch d := b.Data.(type) {
	case []int32:
		for i, v := range d {
			out[i] = int64(v)
		}
	case []int64:
		copy(out, d)
	case []bool:
		for i, v := range d {
			if v {
				out[i] = 1
			}
		}
	}
	return out
}
