package randjaxpr

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// Layout operations for New (Options.Layout).

// maxLayoutSize bounds the size of values that concatenate and dot_general
// produce, which would otherwise grow geometrically.
const maxLayoutSize = 4096

// ranked returns a random variable of rank at least 1, or nil.
func (g *gen) ranked() *ir.Var {
	return g.pick(func(a ir.Aval) bool { return len(a.Shape) > 0 })
}

// transpose emits a random permutation of a variable's dimensions.
func (g *gen) transpose() bool {
	v := g.ranked()
	if v == nil {
		return false
	}
	perm := g.r.Perm(len(v.Aval.Shape))
	shape := make([]int, len(perm))
	for i, p := range perm {
		shape[i] = v.Aval.Shape[p]
	}
	g.emit(ir.Transpose, ir.Params{"permutation": perm}, strong(v.Aval, shape), v)
	return true
}

// reshape flattens a variable or reverses its dimension sizes.
func (g *gen) reshape() bool {
	v := g.ranked()
	if v == nil {
		return false
	}
	shape := []int{v.Aval.Size()}
	if g.r.IntN(2) == 0 {
		shape = slices.Clone(v.Aval.Shape)
		slices.Reverse(shape)
	}
	g.emit(ir.Reshape, ir.Params{"new_sizes": shape, "dimensions": nil, "sharding": nil}, strong(v.Aval, shape), v)
	return true
}

// slice emits a random non-empty slice, sometimes strided.
func (g *gen) slice() bool {
	v := g.pick(func(a ir.Aval) bool { return len(a.Shape) > 0 && a.Size() > 0 })
	if v == nil {
		return false
	}
	n := len(v.Aval.Shape)
	start, limit, shape := make([]int, n), make([]int, n), make([]int, n)
	var strides []int
	if g.r.IntN(2) == 0 {
		strides = make([]int, n)
	}
	for d, size := range v.Aval.Shape {
		start[d] = g.r.IntN(size)
		limit[d] = start[d] + 1 + g.r.IntN(size-start[d])
		step := 1
		if strides != nil {
			step = 1 + g.r.IntN(2)
			strides[d] = step
		}
		shape[d] = (limit[d] - start[d] + step - 1) / step
	}
	var sp any
	if strides != nil {
		sp = strides
	}
	g.emit(ir.Slice, ir.Params{"start_indices": start, "limit_indices": limit, "strides": sp}, strong(v.Aval, shape), v)
	return true
}

// pad emits pad with random low/high (possibly negative) and interior padding.
func (g *gen) pad() bool {
	v := g.ranked()
	if v == nil {
		return false
	}
	cfg := make([][3]int, len(v.Aval.Shape))
	shape := make([]int, len(cfg))
	for d, n := range v.Aval.Shape {
		interior := g.r.IntN(2)
		full := n + max(n-1, 0)*interior
		lo, hi := g.r.IntN(4)-1, g.r.IntN(4)-1
		if lo+hi+full < 1 {
			lo, hi = 0, 0
		}
		cfg[d] = [3]int{lo, hi, interior}
		shape[d] = lo + hi + full
	}
	pv := ir.Literal{Value: float64(g.r.IntN(2)), Aval: ir.Aval{DType: v.Aval.DType}}
	g.emit(ir.Pad, ir.Params{"padding_config": cfg}, strong(v.Aval, shape), v, pv)
	return true
}

// concatenate joins a variable with another of its type along a random dimension.
func (g *gen) concatenate() bool {
	v := g.ranked()
	if v == nil {
		return false
	}
	if 2*v.Aval.Size() > maxLayoutSize {
		return false
	}
	w := g.sameType(v)
	dim := g.r.IntN(len(v.Aval.Shape))
	shape := slices.Clone(v.Aval.Shape)
	shape[dim] *= 2
	g.emit(ir.Concatenate, ir.Params{"dimension": dim}, strong(v.Aval, shape), v, w)
	return true
}

// iota emits an iota of a pool variable's shape in a random numeric dtype.
func (g *gen) iota() bool {
	v := g.ranked()
	if v == nil {
		return false
	}
	dt := g.opts.DTypes[g.r.IntN(len(g.opts.DTypes))]
	if dt == ir.Bool {
		return false
	}
	g.emit(ir.Iota, ir.Params{"dtype": dt, "shape": slices.Clone(v.Aval.Shape), "dimension": g.r.IntN(len(v.Aval.Shape)), "sharding": nil},
		ir.Aval{DType: dt, Shape: slices.Clone(v.Aval.Shape)})
	return true
}

// dot emits dot_general of a numeric variable with one of its type,
// contracting the last dimension and batching the first when rank >= 2.
// Float operands are first made small integers (floor, then clamp to
// [-4, 4]), so that every summation order gives the exact result and the
// backends can be compared bit for bit (dots of real values, which differ
// by rounding, are Products' part).
func (g *gen) dot() bool {
	v := g.pick(func(a ir.Aval) bool { return len(a.Shape) > 0 && a.DType != ir.Bool })
	if v == nil {
		return false
	}
	w := g.sameType(v)
	if v.Aval.DType.IsFloat() {
		v, w = g.smallInts(v), g.smallInts(w)
	}
	n := len(v.Aval.Shape)
	dims := ir.DotDims{LhsContract: []int{n - 1}, RhsContract: []int{n - 1}}
	var batch, free []int
	for d := range n - 1 {
		if d == 0 && g.r.IntN(2) == 0 {
			batch = append(batch, v.Aval.Shape[0])
			dims.LhsBatch, dims.RhsBatch = []int{0}, []int{0}
		} else {
			free = append(free, v.Aval.Shape[d])
		}
	}
	shape := append(append(batch, free...), free...)
	if ir.NumElements(shape) > maxLayoutSize {
		return false
	}
	g.emit(ir.DotGeneral, ir.Params{"dimension_numbers": dims, "precision": nil, "preferred_element_type": v.Aval.DType, "out_sharding": nil},
		strong(v.Aval, shape), v, w)
	return true
}

// smallInts emits clamp(-4, floor(v), 4) for a float variable.
func (g *gen) smallInts(v *ir.Var) *ir.Var {
	a := strong(v.Aval, v.Aval.Shape)
	f := g.emit(ir.Floor, nil, a, v)
	lit := func(x float64) ir.Literal { return ir.Literal{Value: x, Aval: ir.Aval{DType: a.DType}} }
	return g.emit(ir.Clamp, nil, a, lit(-4), f, lit(4))
}
