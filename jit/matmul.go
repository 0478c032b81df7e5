package jit

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// MatMul returns the matrix product with numpy's matmul rules: 1-D operands
// are vectors, and the dimensions before the last two are batch dimensions
// that broadcast (a rank-3 array times a matrix multiplies every matrix of
// the batch). It lowers as jax.numpy.matmul does: squeeze of size-1 batch
// dimensions paired with larger ones, one dot_general (equal batch
// dimensions as its batch dimensions, the others as free dimensions), and a
// transpose into numpy's order when needed.
func (a Array) MatMul(b Array) Array {
	av, bv := a.val().aval, b.val().aval
	if len(av.Shape) == 0 || len(bv.Shape) == 0 {
		throw(ShapeMismatch, "MatMul: operands must be at least 1-D, got shapes %v and %v", av.Shape, bv.Shape)
	}
	dt, _ := promote(ir.Aval{DType: av.DType}, ir.Aval{DType: bv.DType})
	a, b = convertTo(a, dt, false), convertTo(b, dt, false)
	aMat, bMat := len(av.Shape) > 1, len(bv.Shape) > 1
	aBatch, bBatch := batchDims(av.Shape, aMat), batchDims(bv.Shape, bMat)
	nb := max(len(aBatch), len(bBatch))
	aBatch = append(slices.Repeat([]int{-1}, nb-len(aBatch)), aBatch...)
	bBatch = append(slices.Repeat([]int{-1}, nb-len(bBatch)), bBatch...)
	var aSqueeze, bSqueeze, aDot, bDot, idxBatch, idxA, idxB []int
	for i := range nb {
		ba, bb := aBatch[i], bBatch[i]
		switch {
		case ba < 0:
			idxB = append(idxB, i)
		case bb < 0:
			idxA = append(idxA, i)
		case ba == 1:
			idxB = append(idxB, i)
			aSqueeze = append(aSqueeze, len(idxBatch)+len(idxA)+len(aSqueeze))
		case bb == 1:
			idxA = append(idxA, i)
			bSqueeze = append(bSqueeze, len(idxBatch)+len(idxB)+len(bSqueeze))
		case ba == bb:
			aDot = append(aDot, len(idxBatch)+len(idxA))
			bDot = append(bDot, len(idxBatch)+len(idxB))
			idxBatch = append(idxBatch, i)
		default:
			throw(ShapeMismatch, "MatMul: incompatible batch dimensions in shapes %v and %v", av.Shape, bv.Shape)
		}
	}
	if aMat {
		idxA = append(idxA, nb)
	}
	if bMat {
		idxB = append(idxB, nb+boolInt(aMat))
	}
	a, b = squeeze(a, aSqueeze), squeeze(b, bSqueeze)
	na, nbr := a.Ndim(), b.Ndim()
	lc, rc := na-1, nbr-1-boolInt(bMat)
	if a.Shape()[lc] != b.Shape()[rc] {
		throw(ShapeMismatch, "MatMul: contracting dimensions differ: shapes %v and %v", av.Shape, bv.Shape)
	}
	out := dotGeneral(a, b, ir.DotDims{LhsContract: []int{lc}, RhsContract: []int{rc}, LhsBatch: nonNil(aDot), RhsBatch: nonNil(bDot)}, dt)
	order := slices.Concat(idxBatch, idxA, idxB)
	perm := make([]int, len(order))
	for i := range perm {
		perm[i] = slices.Index(order, i)
	}
	return out.Transpose(perm...)
}

// batchDims returns the batch dimensions of a matmul operand.
func batchDims(shape []int, isMat bool) []int {
	if !isMat {
		return nil
	}
	return append([]int{}, shape[:len(shape)-2]...)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// dotGeneral stages a dot_general with the given dimension numbers; the
// result has the batch dimensions, then the free dimensions of a, then
// those of b.
func dotGeneral(a, b Array, dims ir.DotDims, dt DType) Array {
	as, bs := a.val().aval.Shape, b.val().aval.Shape
	var shape []int
	for _, d := range dims.LhsBatch {
		shape = append(shape, as[d])
	}
	for i, d := range as {
		if !slices.Contains(dims.LhsBatch, i) && !slices.Contains(dims.LhsContract, i) {
			shape = append(shape, d)
		}
	}
	for i, d := range bs {
		if !slices.Contains(dims.RhsBatch, i) && !slices.Contains(dims.RhsContract, i) {
			shape = append(shape, d)
		}
	}
	out := ir.Aval{Shape: shape, DType: dt}
	return bind(ir.DotGeneral, ir.Params{"dimension_numbers": dims, "preferred_element_type": dt, "precision": nil, "out_sharding": nil},
		[]ir.Aval{out}, a, b)[0]
}

// squeeze removes size-1 dimensions (a squeeze equation; none when dims is
// empty).
func squeeze(a Array, dims []int) Array {
	if len(dims) == 0 {
		return a
	}
	v := a.val()
	var shape []int
	for i, d := range v.aval.Shape {
		if slices.Contains(dims, i) {
			if d != 1 {
				throw(ShapeMismatch, "squeeze: dimension %d of shape %v is not 1", i, v.aval.Shape)
			}
			continue
		}
		shape = append(shape, d)
	}
	out := ir.Aval{Shape: shape, DType: v.aval.DType, Weak: v.aval.Weak}
	return bind(ir.Squeeze, ir.Params{"dimensions": append([]int{}, dims...)}, []ir.Aval{out}, a)[0]
}
