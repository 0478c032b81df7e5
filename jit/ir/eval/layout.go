package eval

import (
	"fmt"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// applyBroadcastInDim evaluates broadcast_in_dim: operand dimension i maps
// to output dimension broadcast_dimensions[i] and has size 1 or that size.
func applyBroadcastInDim(params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	shape, err := intsParam(params, "shape", false)
	if err != nil {
		return nil, err
	}
	bd, err := intsParam(params, "broadcast_dimensions", true)
	if err != nil {
		return nil, err
	}
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	if len(bd) != len(x.Shape) {
		return nil, fmt.Errorf("broadcast_dimensions %v has %d entries for an operand of rank %d", bd, len(bd), len(x.Shape))
	}
	if err := checkAxes("broadcast_dimensions", bd, len(shape)); err != nil {
		return nil, err
	}
	maps := make([][]int, len(shape))
	for d, n := range shape {
		maps[d] = make([]int, n) // dimensions not in bd: offset 0
	}
	xs := rowMajorStrides(x.Shape)
	for i, d := range bd {
		switch x.Shape[i] {
		case shape[d]:
			maps[d] = linearMap(shape[d], 0, 1, xs[i])
		case 1: // broadcast: stays 0
		default:
			return nil, fmt.Errorf("operand dimension %d has size %d, which cannot broadcast to output dimension %d of size %d (shape %v)",
				i, x.Shape[i], d, shape[d], shape)
		}
	}
	return gather(x, shape, combine(shape, maps), nil), nil
}

// checkShape rejects negative dimensions.
func checkShape(shape []int) error {
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("shape %v has a negative dimension", shape)
		}
	}
	return nil
}

// applyReshape evaluates reshape (row-major; dimensions must be None).
func applyReshape(params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	sizes, err := intsParam(params, "new_sizes", false)
	if err != nil {
		return nil, err
	}
	if dims, _ := params["dimensions"]; dims != nil {
		return nil, fmt.Errorf("dimensions=%v is not supported (only None)", dims)
	}
	if err := checkShape(sizes); err != nil {
		return nil, err
	}
	if ir.NumElements(sizes) != x.Len() {
		return nil, fmt.Errorf("cannot reshape %v (%d elements) to %v (%d elements)", x.Shape, x.Len(), sizes, ir.NumElements(sizes))
	}
	return copyBuffer(x, sizes), nil
}

// applyTranspose evaluates transpose: output dimension i is operand
// dimension permutation[i].
func applyTranspose(params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	perm, err := intsParam(params, "permutation", false)
	if err != nil {
		return nil, err
	}
	if len(perm) != len(x.Shape) {
		return nil, fmt.Errorf("permutation %v has %d entries for an operand of rank %d", perm, len(perm), len(x.Shape))
	}
	if err := checkAxes("permutation", perm, len(x.Shape)); err != nil {
		return nil, err
	}
	xs := rowMajorStrides(x.Shape)
	shape := make([]int, len(perm))
	maps := make([][]int, len(perm))
	for i, p := range perm {
		shape[i] = x.Shape[p]
		maps[i] = linearMap(shape[i], 0, 1, xs[p])
	}
	return gather(x, shape, combine(shape, maps), nil), nil
}

// applySqueeze evaluates squeeze: removes the listed size-1 dimensions.
func applySqueeze(params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	dims, err := intsParam(params, "dimensions", false)
	if err != nil {
		return nil, err
	}
	if err := checkAxes("dimensions", dims, len(x.Shape)); err != nil {
		return nil, err
	}
	var shape []int
	for d, n := range x.Shape {
		if !slices.Contains(dims, d) {
			shape = append(shape, n)
		} else if n != 1 {
			return nil, fmt.Errorf("cannot squeeze dimension %d of size %d (shape %v)", d, n, x.Shape)
		}
	}
	return copyBuffer(x, shape), nil
}

// applySlice evaluates slice with start_indices, limit_indices and
// optional strides.
func applySlice(params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	start, err := intsParam(params, "start_indices", false)
	if err != nil {
		return nil, err
	}
	limit, err := intsParam(params, "limit_indices", false)
	if err != nil {
		return nil, err
	}
	steps, err := intsParam(params, "strides", true)
	if err != nil {
		return nil, err
	}
	r := len(x.Shape)
	if len(start) != r || len(limit) != r || (steps != nil && len(steps) != r) {
		return nil, fmt.Errorf("start_indices %v, limit_indices %v and strides %v must each have one entry per dimension of %v",
			start, limit, steps, x.Shape)
	}
	xs := rowMajorStrides(x.Shape)
	shape := make([]int, r)
	maps := make([][]int, r)
	for d := range r {
		step := 1
		if steps != nil {
			step = steps[d]
		}
		if step < 1 || start[d] < 0 || start[d] > limit[d] || limit[d] > x.Shape[d] {
			return nil, fmt.Errorf("dimension %d: slice [%d:%d:%d] is out of range for size %d (want 0 <= start <= limit <= size, stride >= 1)",
				d, start[d], limit[d], step, x.Shape[d])
		}
		shape[d] = (limit[d] - start[d] + step - 1) / step
		maps[d] = linearMap(shape[d], start[d], step, xs[d])
	}
	return gather(x, shape, combine(shape, maps), nil), nil
}

// applyPad evaluates pad(x, padval) with padding_config (lo, hi, interior)
// per dimension; negative lo/hi crop.
func applyPad(params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 2); err != nil {
		return nil, err
	}
	x, pv := args[0], args[1]
	if pv.DType != x.DType || len(pv.Shape) != 0 {
		return nil, fmt.Errorf("padding value has type %s, want the scalar %s[]", pv.Aval(), x.DType)
	}
	v, ok := params["padding_config"]
	if !ok {
		return nil, fmt.Errorf("missing parameter padding_config")
	}
	cfg, ok := v.([][3]int)
	if !ok {
		return nil, fmt.Errorf("parameter padding_config is %T, want [][3]int", v)
	}
	if len(cfg) != len(x.Shape) {
		return nil, fmt.Errorf("padding_config has %d entries for an operand of rank %d", len(cfg), len(x.Shape))
	}
	xs := rowMajorStrides(x.Shape)
	shape := make([]int, len(cfg))
	maps := make([][]int, len(cfg))
	for d, c := range cfg {
		lo, hi, interior := c[0], c[1], c[2]
		n := x.Shape[d]
		if interior < 0 {
			return nil, fmt.Errorf("dimension %d: negative interior padding %d", d, interior)
		}
		size := lo + hi + n + max(n-1, 0)*interior
		if size < 0 {
			return nil, fmt.Errorf("dimension %d: padding (%d, %d, %d) of size %d gives negative size %d", d, lo, hi, interior, n, size)
		}
		shape[d] = size
		m := make([]int, size)
		for o := range m {
			j := o - lo
			if j < 0 || j%(interior+1) != 0 || j/(interior+1) >= n {
				m[o] = -1
			} else {
				m[o] = j / (interior + 1) * xs[d]
			}
		}
		maps[d] = m
	}
	return gather(x, shape, combine(shape, maps), pv), nil
}

// applyConcatenate evaluates concatenate along dimension.
func applyConcatenate(params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("got no operands, want at least one")
	}
	dim, err := intParam(params, "dimension")
	if err != nil {
		return nil, err
	}
	a0 := args[0]
	if dim < 0 || dim >= len(a0.Shape) {
		return nil, fmt.Errorf("dimension %d out of range for rank %d", dim, len(a0.Shape))
	}
	shape := slices.Clone(a0.Shape)
	shape[dim] = 0
	for k, a := range args {
		if a.DType != a0.DType || len(a.Shape) != len(a0.Shape) {
			return nil, fmt.Errorf("operand %d has type %s, incompatible with operand 0's %s", k, a.Aval(), a0.Aval())
		}
		for d := range a.Shape {
			if d != dim && a.Shape[d] != a0.Shape[d] {
				return nil, fmt.Errorf("operand %d has shape %v, which differs from operand 0's %v outside dimension %d", k, a.Shape, a0.Shape, dim)
			}
		}
		shape[dim] += a.Shape[dim]
	}
	// Row-major: each operand is [outer, inner_k] with outer = prod(shape[:dim]);
	// each output row is the concatenation of the operands' rows.
	outer := ir.NumElements(shape[:dim])
	out := ir.NewBuffer(a0.DType, shape)
	off := 0
	for r := range outer {
		for _, a := range args {
			inner := a.Len() / outer
			copyData(out.Data, off, sliceData(a.Data, r*inner, (r+1)*inner))
			off += inner
		}
	}
	return out, nil
}

// applyIota evaluates iota: out[i] = coordinate of i along dimension.
func applyIota(params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 0); err != nil {
		return nil, err
	}
	dt, err := dtypeParam(params, "dtype", false)
	if err != nil {
		return nil, err
	}
	if dt == ir.Bool {
		return nil, notDefined(dt)
	}
	shape, err := intsParam(params, "shape", false)
	if err != nil {
		return nil, err
	}
	if err := checkShape(shape); err != nil {
		return nil, err
	}
	dim, err := intParam(params, "dimension")
	if err != nil {
		return nil, err
	}
	if dim < 0 || dim >= len(shape) {
		return nil, fmt.Errorf("dimension %d out of range for shape %v", dim, shape)
	}
	maps := make([][]int, len(shape))
	for d, n := range shape {
		maps[d] = make([]int, n)
	}
	maps[dim] = linearMap(shape[dim], 0, 1, 1)
	idx := combine(shape, maps)
	vals := make([]int64, len(idx))
	for i, v := range idx {
		vals[i] = int64(v)
	}
	out := ir.NewBuffer(dt, shape)
	fromInts(out, vals)
	return out, nil
}
