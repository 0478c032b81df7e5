package jit

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// vjpRule stages a differentiated equation's primal results and the
// residuals of its derivative, and returns its backward function. act says
// which operands are differentiated; cotangents of the others may be nil.
func vjpRule(e *ir.Eqn, in []Array, act []bool) ([]Array, backward) {
	if e.Prim == ir.While {
		throw(BadArgument, "Reverse-mode differentiation does not work for WhileLoop or ForiLoop with traced (dynamic) bounds: "+
			"the number of iterations is not known when tracing, so the values of every iteration cannot be kept for the backward pass. "+
			"Try using ScanN (a fixed number of steps), or ForiLoop with Go int (static) bounds.%s", stagedAt(e))
	}
	outs := bind(e.Prim, e.Params, outAvals(e), in...)
	if len(outs) > 0 && !outs[0].Dtype().IsFloat() && e.Prim != ir.Scan && e.Prim != ir.Cond {
		return outs, func([]Array) []Array { return nil } // comparisons, integer results
	}
	switch {
	case ir.IsUnary(e.Prim):
		f := unaryVJP(e, in[0], outs[0])
		return outs, func(ct []Array) []Array { return []Array{f(ct[0])} }
	case ir.IsBinary(e.Prim):
		f := binaryVJP(e.Prim, in[0], in[1], outs[0], act)
		return outs, func(ct []Array) []Array {
			a, b := f(ct[0])
			return []Array{unbroadcastOrNil(a, in[0]), unbroadcastOrNil(b, in[1])}
		}
	}
	x := in[0]
	xa := x.val().aval
	one := func(f func(ct Array) Array) backward {
		return func(ct []Array) []Array { return []Array{f(ct[0])} }
	}
	switch e.Prim {
	case ir.ConvertElementType:
		return outs, one(func(ct Array) Array { return convertTo(ct, xa.DType, xa.Weak) })
	case ir.SelectN:
		return outs, func(ct []Array) []Array {
			return append([]Array{{}}, selectTranspose(in[0], ct[0], act[1:])...)
		}
	case ir.Clamp:
		lo, cx, hi := in[0], in[1], in[2]
		return outs, func(ct []Array) []Array {
			g := ct[0]
			res := make([]Array, 3)
			if act[1] {
				res[1] = Where(cx.Gt(lo).And(cx.Lt(hi)), g, 0)
			}
			if act[0] {
				res[0] = unbroadcast(Where(lo.Gt(cx).And(lo.Lt(hi)), g, 0), lo.val().aval)
			}
			if act[2] {
				res[2] = unbroadcast(Where(hi.Lt(cx), g, 0), hi.val().aval)
			}
			return res
		}
	case ir.BroadcastInDim:
		dims := e.Params["broadcast_dimensions"].([]int)
		return outs, one(func(ct Array) Array {
			var kept, unit []int
			for i, d := range dims {
				if xa.Shape[i] == 1 {
					unit = append(unit, i)
				} else {
					kept = append(kept, d)
				}
			}
			var axes []int
			for i := range ct.Ndim() {
				if !slices.Contains(kept, i) {
					axes = append(axes, i)
				}
			}
			s := ct
			if len(axes) > 0 {
				s = ct.Sum(axes...)
			}
			return s.Reshape(xa.Shape...)
		})
	case ir.Reshape:
		return outs, one(func(ct Array) Array { return ct.Reshape(xa.Shape...) })
	case ir.Transpose:
		perm := e.Params["permutation"].([]int)
		inv := make([]int, len(perm))
		for i, p := range perm {
			inv[p] = i
		}
		return outs, one(func(ct Array) Array { return ct.Transpose(inv...) })
	case ir.Squeeze:
		dims := e.Params["dimensions"].([]int)
		return outs, one(func(ct Array) Array {
			var kept []int
			for i := range xa.Shape {
				if !slices.Contains(dims, i) {
					kept = append(kept, i)
				}
			}
			return broadcastInDim(ct, xa.Shape, kept)
		})
	case ir.ReduceSum:
		axes := e.Params["axes"].([]int)
		return outs, one(func(ct Array) Array { return broadcastInDim(ct, xa.Shape, keptDims(len(xa.Shape), axes)) })
	case ir.ReduceMax, ir.ReduceMin:
		axes := e.Params["axes"].([]int)
		kept := keptDims(len(xa.Shape), axes)
		loc := convertTo(x.Eq(broadcastInDim(outs[0], xa.Shape, kept)), xa.DType, false)
		counts := loc.Sum(axes...)
		return outs, one(func(ct Array) Array { return broadcastInDim(ct.Div(counts), xa.Shape, kept).Mul(loc) })
	case ir.Concatenate:
		dim := e.Params["dimension"].(int)
		return outs, func(ct []Array) []Array {
			res := make([]Array, len(in))
			off := 0
			for i, a := range in {
				s := a.val().aval.Shape
				if act[i] {
					start, limit := make([]int, len(s)), ct[0].Shape()
					start[dim], limit[dim] = off, off+s[dim]
					res[i] = ct[0].Slice(start, limit)
				}
				off += s[dim]
			}
			return res
		}
	case ir.Pad:
		cfg := e.Params["padding_config"].([][3]int)
		return outs, func(ct []Array) []Array {
			// JAX's pad transpose: undo the edge padding (a pad by the
			// negated amounts), then take every (interior+1)-th element.
			unpad := make([][3]int, len(cfg))
			strides := make([]int, len(cfg))
			shape := ct[0].Shape()
			for i, c := range cfg {
				unpad[i] = [3]int{-c[0], -c[1], 0}
				strides[i] = c[2] + 1
				shape[i] -= c[0] + c[1]
			}
			ca := ct[0].val().aval
			zero := concrete(ir.ScalarBuffer(ca.DType, 0), false)
			u := bind(ir.Pad, ir.Params{"padding_config": unpad}, []ir.Aval{{Shape: shape, DType: ca.DType, Weak: ca.Weak}}, ct[0], zero)[0]
			gx := stridedSlice(u, make([]int, len(shape)), shape, strides)
			res := []Array{gx, {}}
			if act[1] {
				res[1] = ct[0].Sum().Sub(gx.Sum())
			}
			return res
		}
	case ir.Slice:
		start := e.Params["start_indices"].([]int)
		strides, _ := e.Params["strides"].([]int)
		return outs, one(func(ct Array) Array {
			cfg := make([][3]int, len(start))
			for i := range cfg {
				st, n := 1, ct.val().aval.Shape[i]
				if strides != nil {
					st = strides[i]
				}
				real := start[i]
				if n > 0 {
					real += 1 + (n-1)*st
				}
				cfg[i] = [3]int{start[i], xa.Shape[i] - real, st - 1}
			}
			zero := concrete(ir.ScalarBuffer(xa.DType, 0), false)
			return bind(ir.Pad, ir.Params{"padding_config": cfg}, []ir.Aval{{Shape: xa.Shape, DType: xa.DType, Weak: ct.val().aval.Weak}}, ct, zero)[0]
		})
	case ir.DotGeneral:
		return outs, dotVJP(e, in, act)
	case ir.Cond:
		return outs, condVJP(e, in, act)
	case ir.Scan:
		return scanVJP(e, in, act)
	case ir.CustomJVPCall:
		return outs, customVJP(e, in, outs, act)
	case ir.DebugPrint:
		return outs, func([]Array) []Array { return nil }
	}
	throw(BadArgument, "Grad: primitive %s is not differentiable", e.Prim)
	return nil, nil
}

// stagedAt says where an equation was staged, when known.
func stagedAt(e *ir.Eqn) string {
	if e.Source != nil {
		return " (the loop is at " + e.Source.String() + ")"
	}
	return ""
}

func keptDims(n int, axes []int) []int {
	var kept []int
	for i := range n {
		if !slices.Contains(axes, i) {
			kept = append(kept, i)
		}
	}
	return kept
}

func unbroadcastOrNil(g, operand Array) Array {
	if g.v == nil {
		return g
	}
	return unbroadcast(g, operand.val().aval)
}

// unaryVJP computes the residuals of a unary primitive's derivative (as
// JAX's JVP rules define it) and returns the map of cotangents.
func unaryVJP(e *ir.Eqn, x, ans Array) func(Array) Array {
	mul := func(r Array) func(Array) Array { return func(ct Array) Array { return ct.Mul(r) } }
	switch e.Prim {
	case ir.Neg:
		return Array.Neg
	case ir.Sin:
		return mul(x.Cos())
	case ir.Cos:
		r := x.Sin()
		return func(ct Array) Array { return ct.Neg().Mul(r) }
	case ir.Tan:
		return mul(binary(ir.Add, 1.0, ans.Mul(ans)))
	case ir.Tanh:
		// JAX: mul(add(g, mul(g, ans)), sub(1, ans)), transposed.
		r := binary(ir.Sub, 1.0, ans)
		return func(ct Array) Array {
			a := ct.Mul(r)
			return addAny(a, a.Mul(ans))
		}
	case ir.Exp:
		return mul(ans)
	case ir.Log:
		return func(ct Array) Array { return ct.Div(x) }
	case ir.Log1p:
		r := x.Add(1.0)
		return func(ct Array) Array { return ct.Div(r) }
	case ir.Expm1:
		return mul(ans.Add(1.0))
	case ir.Sqrt:
		return mul(binary(ir.Div, 0.5, ans))
	case ir.Rsqrt:
		return mul(binary(ir.Mul, -0.5, ans.Div(x)))
	case ir.Logistic:
		return mul(ans.Mul(binary(ir.Sub, 1.0, ans)))
	case ir.Abs:
		// JAX: select(ge(x, 0), g, neg(g)) (1 at 0), transposed: select_n's
		// cotangents, then neg's, summed.
		pos := x.Ge(0.0)
		return func(ct Array) Array {
			c := selectTranspose(pos, ct, []bool{true, true})
			return addAny(c[1], c[0].Neg())
		}
	case ir.IntegerPow:
		y := e.Params["y"].(int)
		switch y {
		case 0:
			return func(Array) Array { return Array{} }
		case 1:
			return func(ct Array) Array { return ct }
		}
		p := x
		if y != 2 {
			p = unary(ir.IntegerPow, x, false, ir.Params{"y": y - 1})
		}
		return mul(binary(ir.Mul, float64(y), p))
	}
	return func(Array) Array { return Array{} } // sign, floor, ceil: zero almost everywhere
}

// binaryVJP computes the residuals of a binary primitive's partial
// derivatives and returns the map from the result's cotangent to the
// operands' (before unbroadcasting).
func binaryVJP(prim string, x, y, ans Array, act []bool) func(Array) (Array, Array) {
	switch prim {
	case ir.Add, ir.AddAny:
		return func(ct Array) (Array, Array) { return ct, ct }
	case ir.Sub:
		return func(ct Array) (Array, Array) {
			var b Array
			if act[1] {
				b = ct.Neg()
			}
			return ct, b
		}
	case ir.Mul:
		return func(ct Array) (Array, Array) {
			var a, b Array
			if act[0] {
				a = ct.Mul(y)
			}
			if act[1] {
				b = x.Mul(ct)
			}
			return a, b
		}
	case ir.Div:
		var r Array
		if act[1] {
			r = unary(ir.IntegerPow, y, false, ir.Params{"y": -2})
		}
		return func(ct Array) (Array, Array) {
			var a, b Array
			if act[0] {
				a = ct.Div(y)
			}
			if act[1] {
				b = ct.Neg().Mul(x).Mul(r)
			}
			return a, b
		}
	case ir.Pow:
		var r0, r1 Array
		if act[0] {
			r0 = y.Mul(x.Pow(y.Sub(1.0)))
		}
		if act[1] {
			r1 = Where(x.Eq(0.0), 1.0, x).Log().Mul(ans)
		}
		return func(ct Array) (Array, Array) { return mulOrNil(ct, r0), mulOrNil(ct, r1) }
	case ir.Max, ir.Min:
		var r0, r1 Array
		if act[0] {
			r0 = balancedEq(x, ans, y)
		}
		if act[1] {
			r1 = balancedEq(y, ans, x)
		}
		return func(ct Array) (Array, Array) { return mulOrNil(ct, r0), mulOrNil(ct, r1) }
	case ir.Rem:
		var r Array
		if act[1] {
			q := x.Div(y)
			r = q.Sign().Mul(q.Abs().Floor())
		}
		return func(ct Array) (Array, Array) {
			var b Array
			if act[1] {
				b = ct.Neg().Mul(r)
			}
			return ct, b
		}
	}
	return func(Array) (Array, Array) { return Array{}, Array{} }
}

func mulOrNil(ct, r Array) Array {
	if r.v == nil {
		return Array{}
	}
	return ct.Mul(r)
}

// balancedEq is 1 where x is the result z, 1/2 where y is too, else 0: the
// derivative of max and min with ties split evenly, as JAX's _balanced_eq
// computes it: div(select(eq(x, z), 1, 0), select(eq(y, z), 2, 1)).
func balancedEq(x, z, y Array) Array {
	c := func(v float64) Array { return Full(v, z.Dtype(), z.Shape()...) }
	return Where(x.Eq(z), c(1), c(0)).Div(Where(y.Eq(z), c(2), c(1)))
}

// selectTranspose is JAX's transpose of select_n(which, cases...): the
// cotangent of each case marked in act is ct where that case is chosen and
// zeros elsewhere, select_n(which, ct, zeros) and select_n(which, zeros, ct)
// for a bool which, select_n(eq(which, i), zeros, ct) for an int32 one. The
// zeros are staged once, first.
func selectTranspose(which, ct Array, act []bool) []Array {
	aval := ct.val().aval
	zeros := zerosLike(aval)
	sel := func(w, onFalse, onTrue Array) Array {
		return bind(ir.SelectN, nil, []ir.Aval{aval}, w, onFalse, onTrue)[0]
	}
	res := make([]Array, len(act))
	for i, a := range act {
		switch {
		case !a:
		case which.Dtype() != Bool:
			res[i] = sel(which.Eq(i), zeros, ct)
		case i == 0:
			res[i] = sel(which, ct, zeros)
		default:
			res[i] = sel(which, zeros, ct)
		}
	}
	return res
}

// dotVJP transposes dot_general: each operand's cotangent is a dot_general
// of the result's cotangent with the other operand, transposed into the
// operand's layout.
func dotVJP(e *ir.Eqn, in []Array, act []bool) backward {
	dn := e.Params["dimension_numbers"].(ir.DotDims)
	lhs, rhs := in[0], in[1]
	return func(ct []Array) []Array {
		g := ct[0]
		res := make([]Array, 2)
		if act[0] {
			res[0] = dotTranspose(g, rhs, lhs.val().aval, dn.LhsBatch, dn.LhsContract, dn.RhsBatch, dn.RhsContract, true)
		}
		if act[1] {
			res[1] = dotTranspose(g, lhs, rhs.val().aval, dn.RhsBatch, dn.RhsContract, dn.LhsBatch, dn.LhsContract, false)
		}
		return res
	}
}

// dotTranspose returns the cotangent of one dot_general operand (type to,
// with batch dimensions myBatch and contracting myContract) from the
// result's cotangent g and the other operand. g's dimensions are batch,
// then the lhs's free dimensions, then the rhs's.
func dotTranspose(g, other Array, to ir.Aval, myBatch, myContract, otherBatch, otherContract []int, isLhs bool) Array {
	nb := len(myBatch)
	myFree := freeDims(len(to.Shape), myBatch, myContract)
	otherFree := freeDims(other.Ndim(), otherBatch, otherContract)
	// g's free dimensions of the other operand, to contract with it.
	var gOther []int
	start := nb + len(myFree)
	if !isLhs {
		start = nb
	}
	for i := range otherFree {
		gOther = append(gOther, start+i)
	}
	gBatch := make([]int, nb)
	for i := range gBatch {
		gBatch[i] = i
	}
	dims := ir.DotDims{LhsContract: gOther, RhsContract: otherFree, LhsBatch: gBatch, RhsBatch: nonNil(append([]int{}, otherBatch...))}
	if len(gOther) == 0 {
		dims.LhsContract, dims.RhsContract = []int{}, []int{}
	}
	r := dotGeneral(g, other, dims, to.DType)
	// r: batch, my free dims (g's remaining), other's contracting dims in
	// increasing order of the other's dimension — each is one of mine.
	sortedOther := slices.Clone(otherContract)
	slices.Sort(sortedOther)
	order := slices.Clone(myBatch)
	order = append(order, myFree...)
	for _, od := range sortedOther {
		order = append(order, myContract[slices.Index(otherContract, od)])
	}
	perm := make([]int, len(order))
	for i := range perm {
		perm[i] = slices.Index(order, i)
	}
	return r.Transpose(perm...)
}

func freeDims(n int, batch, contract []int) []int {
	var out []int
	for i := range n {
		if !slices.Contains(batch, i) && !slices.Contains(contract, i) {
			out = append(out, i)
		}
	}
	return out
}

// stridedSlice stages slice with strides (none when all are 1).
func stridedSlice(a Array, start, limit, strides []int) Array {
	v := a.val()
	shape := make([]int, len(start))
	unit := true
	for i := range shape {
		shape[i] = (limit[i] - start[i] + strides[i] - 1) / strides[i]
		unit = unit && strides[i] == 1
	}
	var st any = append([]int{}, strides...)
	if unit {
		st = nil
	}
	out := ir.Aval{Shape: shape, DType: v.aval.DType, Weak: v.aval.Weak}
	if equalInts(shape, v.aval.Shape) && unit {
		return a
	}
	return bind(ir.Slice, ir.Params{"start_indices": append([]int{}, start...), "limit_indices": append([]int{}, limit...), "strides": st},
		[]ir.Aval{out}, a)[0]
}
