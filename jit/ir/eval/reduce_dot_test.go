package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// TestReduce checks sum/max/min over various axes for each dtype.
func TestReduce(t *testing.T) {
	red := func(prim string, x *ir.Buffer, axes ...int) *ir.Buffer {
		return mustApply(t, prim, ir.Params{"axes": axes, "out_sharding": nil}, x)
	}
	for _, dt := range []ir.DType{ir.Float32, ir.Float64, ir.BFloat16, ir.Float16, ir.Int32, ir.Int64} {
		x := fbuf(dt, []int{2, 3}, 1, -2, 3, 4, 5, -6)
		wantBuf(t, red(ir.ReduceSum, x, 1), dt, []int{2}, 2, 3)
		wantBuf(t, red(ir.ReduceSum, x, 0), dt, []int{3}, 5, 3, -3)
		wantBuf(t, red(ir.ReduceSum, x, 0, 1), dt, nil, 5)
		wantBuf(t, red(ir.ReduceSum, x), dt, []int{2, 3}, 1, -2, 3, 4, 5, -6)
		wantBuf(t, red(ir.ReduceMax, x, 1), dt, []int{2}, 3, 5)
		wantBuf(t, red(ir.ReduceMin, x, 0), dt, []int{3}, 1, -2, -6)
	}
	y := seq(ir.Int32, 2, 3, 4)
	// Sum over axes 0 and 2: out[j] = sum_{i<2} sum_{k<4} (12i + 4j + k) = 48 + 32j + 12.
	wantBuf(t, red(ir.ReduceSum, y, 2, 0), ir.Int32, []int{3}, 60, 92, 124)
	// Empty reductions: the identities.
	e := ir.NewBuffer(ir.Float32, []int{0, 2})
	wantBuf(t, red(ir.ReduceMax, e, 0), ir.Float32, []int{2}, -inf, -inf)
	wantBuf(t, red(ir.ReduceMin, e, 0), ir.Float32, []int{2}, inf, inf)
	wantBuf(t, red(ir.ReduceSum, e, 0), ir.Float32, []int{2}, 0, 0)
	wantBuf(t, red(ir.ReduceMax, ir.NewBuffer(ir.Int32, []int{0}), 0), ir.Int32, nil, math.MinInt32)
	wantBuf(t, red(ir.ReduceMin, ir.NewBuffer(ir.Int64, []int{0}), 0), ir.Int64, nil, math.MaxInt64)
	// NaN propagates through max/min wherever it is.
	n := vec(ir.Float32, 1, nan, 3)
	wantBuf(t, red(ir.ReduceMax, n, 0), ir.Float32, nil, nan)
	wantBuf(t, red(ir.ReduceMin, vec(ir.Float64, nan, 1), 0), ir.Float64, nil, nan)
	wantBuf(t, red(ir.ReduceSum, vec(ir.Float32, inf, -inf), 0), ir.Float32, nil, nan)
	// Bools: max is any, min is all.
	wantBuf(t, red(ir.ReduceMax, bvec(false, true), 0), ir.Bool, nil, 1)
	wantBuf(t, red(ir.ReduceMin, bvec(false, true), 0), ir.Bool, nil, 0)
	_, err := Apply(ir.ReduceSum, ir.Params{"axes": []int{0}}, []*ir.Buffer{bvec(true)})
	wantErr(t, err, "eval reduce_sum", "bool")
	_, err = Apply(ir.ReduceSum, ir.Params{"axes": []int{2}}, []*ir.Buffer{seq(ir.Float32, 2, 2)})
	wantErr(t, err, "eval reduce_sum", "out of range")
}

// TestReduceSumPrecision checks that float sums round once, at the end.
func TestReduceSumPrecision(t *testing.T) {
	// 1 + 2^-24 + 2^-24: f32 left-to-right gives 1, the rounded exact sum 1+2^-23.
	x := vec(ir.Float32, 1, math.Ldexp(1, -24), math.Ldexp(1, -24))
	wantBuf(t, mustApply(t, ir.ReduceSum, ir.Params{"axes": []int{0}}, x), ir.Float32, nil, 1+math.Ldexp(1, -23))
	// bf16: 256 + 1 + 1 = 258 (representable), though 256+1 alone is not.
	b := vec(ir.BFloat16, 256, 1, 1)
	wantBuf(t, mustApply(t, ir.ReduceSum, ir.Params{"axes": []int{0}}, b), ir.BFloat16, nil, 258)
}

// naiveDot computes dot_general with explicit loops over a generic index
// space: out[b..., i..., j...] = sum_k lhs[...] * rhs[...].
func naiveDot(l, r *ir.Buffer, d ir.DotDims) ([]int, []float64) {
	type dimRef struct{ lhs, rhs int } // -1 where absent
	var outRefs []dimRef
	var outShape []int
	for i := range d.LhsBatch {
		outRefs = append(outRefs, dimRef{d.LhsBatch[i], d.RhsBatch[i]})
		outShape = append(outShape, l.Shape[d.LhsBatch[i]])
	}
	isUsed := func(dim int, lists ...[]int) bool {
		for _, ls := range lists {
			for _, x := range ls {
				if x == dim {
					return true
				}
			}
		}
		return false
	}
	for k := range l.Shape {
		if !isUsed(k, d.LhsBatch, d.LhsContract) {
			outRefs = append(outRefs, dimRef{k, -1})
			outShape = append(outShape, l.Shape[k])
		}
	}
	for k := range r.Shape {
		if !isUsed(k, d.RhsBatch, d.RhsContract) {
			outRefs = append(outRefs, dimRef{-1, k})
			outShape = append(outShape, r.Shape[k])
		}
	}
	cShape := make([]int, len(d.LhsContract))
	for i, c := range d.LhsContract {
		cShape[i] = l.Shape[c]
	}
	flat := func(shape, idx []int) int {
		f := 0
		for i := range shape {
			f = f*shape[i] + idx[i]
		}
		return f
	}
	var out []float64
	forEach(outShape, func(o []int) {
		li, ri := make([]int, len(l.Shape)), make([]int, len(r.Shape))
		for i, ref := range outRefs {
			if ref.lhs >= 0 {
				li[ref.lhs] = o[i]
			}
			if ref.rhs >= 0 {
				ri[ref.rhs] = o[i]
			}
		}
		s := 0.0
		forEach(cShape, func(c []int) {
			for i := range c {
				li[d.LhsContract[i]] = c[i]
				ri[d.RhsContract[i]] = c[i]
			}
			s += l.At(flat(l.Shape, li)) * r.At(flat(r.Shape, ri))
		})
		out = append(out, s)
	})
	return outShape, out
}

// forEach calls f with every index of shape in row-major order.
func forEach(shape []int, f func([]int)) {
	idx := make([]int, len(shape))
	for range ir.NumElements(shape) {
		f(idx)
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
}

// randBuf fills a buffer with small random integers (exact in every dtype).
func randBuf(r *rand.Rand, dt ir.DType, shape ...int) *ir.Buffer {
	b := ir.NewBuffer(dt, shape)
	for i := range b.Len() {
		b.Set(i, float64(r.IntN(7)-3))
	}
	return b
}

// TestDotGeneral checks matmul, batch dims in odd positions, several
// contracting dims and outer products against naiveDot.
func TestDotGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		l, r []int
		d    ir.DotDims
	}{
		{[]int{3, 4}, []int{4, 5}, ir.DotDims{LhsContract: []int{1}, RhsContract: []int{0}}},
		{[]int{2, 3, 4}, []int{2, 4, 5}, ir.DotDims{LhsContract: []int{2}, RhsContract: []int{1}, LhsBatch: []int{0}, RhsBatch: []int{0}}},
		{[]int{3, 2, 4}, []int{4, 5, 2}, ir.DotDims{LhsContract: []int{2}, RhsContract: []int{0}, LhsBatch: []int{1}, RhsBatch: []int{2}}},
		{[]int{2, 3, 4, 5}, []int{5, 2, 3, 6}, ir.DotDims{LhsContract: []int{3, 1}, RhsContract: []int{0, 2}, LhsBatch: []int{0}, RhsBatch: []int{1}}},
		{[]int{3}, []int{4}, ir.DotDims{}},
		{[]int{4}, []int{4}, ir.DotDims{LhsContract: []int{0}, RhsContract: []int{0}}},
		{[]int{0, 3}, []int{3, 2}, ir.DotDims{LhsContract: []int{1}, RhsContract: []int{0}}},
	}
	for _, c := range cases {
		for _, dt := range []ir.DType{ir.Float32, ir.Float64, ir.BFloat16, ir.Int32, ir.Int64} {
			lb, rb := randBuf(r, dt, c.l...), randBuf(r, dt, c.r...)
			got := mustApply(t, ir.DotGeneral, ir.Params{"dimension_numbers": c.d, "precision": nil, "preferred_element_type": dt}, lb, rb)
			shape, want := naiveDot(lb, rb, c.d)
			wantBuf(t, got, dt, shape, want...)
		}
	}
}

// TestDotGeneralDTypes checks preferred_element_type, rounding of the sum and errors.
func TestDotGeneralDTypes(t *testing.T) {
	mm := ir.DotDims{LhsContract: []int{0}, RhsContract: []int{0}}
	a, b := vec(ir.Int32, 1, 2, 3), vec(ir.Int32, 4, 5, 6)
	wantBuf(t, mustApply(t, ir.DotGeneral, ir.Params{"dimension_numbers": mm, "preferred_element_type": nil}, a, b), ir.Int32, nil, 32)
	wantBuf(t, mustApply(t, ir.DotGeneral, ir.Params{"dimension_numbers": mm, "preferred_element_type": ir.Float32}, a, b), ir.Float32, nil, 32)
	bf := vec(ir.BFloat16, 256, 1, 1)
	ones := vec(ir.BFloat16, 1, 1, 1)
	wantBuf(t, mustApply(t, ir.DotGeneral, ir.Params{"dimension_numbers": mm}, bf, ones), ir.BFloat16, nil, 258)
	wantBuf(t, mustApply(t, ir.DotGeneral, ir.Params{"dimension_numbers": mm, "preferred_element_type": ir.Float32}, vec(ir.BFloat16, 256, 1), vec(ir.BFloat16, 1, 1)), ir.Float32, nil, 257)
	_, err := Apply(ir.DotGeneral, ir.Params{"dimension_numbers": mm}, []*ir.Buffer{a, vec(ir.Int32, 1, 2)})
	wantErr(t, err, "eval dot_general", "contracting dimensions")
	_, err = Apply(ir.DotGeneral, ir.Params{"dimension_numbers": ir.DotDims{LhsContract: []int{1}, RhsContract: []int{0}}}, []*ir.Buffer{a, b})
	wantErr(t, err, "eval dot_general", "out of range")
	_, err = Apply(ir.DotGeneral, ir.Params{}, []*ir.Buffer{a, b})
	wantErr(t, err, "missing parameter dimension_numbers")
}
