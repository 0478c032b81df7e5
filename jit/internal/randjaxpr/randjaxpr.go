// Package randjaxpr generates random valid jaxprs and inputs for them: test
// support only (the reference evaluator, the CPU backend and the GPU lowering
// compare themselves against each other on what it makes). It is internal so
// that no program links it.
package randjaxpr

import (
	"math/rand/v2"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// Options controls New. Zero fields take the defaults noted.
type Options struct {
	// NumInputs is the number of jaxpr inputs (default 2).
	NumInputs int
	// NumEqns is the number of generation steps at the top level; each adds
	// one to four equations (default 8).
	NumEqns int
	// MaxRank and MaxDim bound the base shape every input has (defaults 2
	// and 4; dimensions are at least 1).
	MaxRank, MaxDim int
	// DTypes are the input dtypes and convert_element_type targets (default
	// f32 only). Bool values also arise from comparisons.
	DTypes []ir.DType
	// ControlFlow also generates cond, scan and while equations (with
	// random bodies, nested at most two deep).
	ControlFlow bool
	// Layout also generates transpose, reshape, slice, pad, concatenate,
	// iota and dot_general equations (which make values of other shapes).
	Layout bool
}

// New builds a random valid jaxpr of elementwise, broadcast,
// reduce, select, clamp and convert equations (and, with
// opts.ControlFlow, cond, scan and while) together with random inputs for
// it. Values stay moderate: domain-restricted functions (log, sqrt, ...)
// get positive operands and exp-like ones bounded operands, so results are
// finite except for rare integer and half-precision overflow. The same r
// state gives the same jaxpr and inputs.
func New(r *rand.Rand, opts Options) (*ir.Jaxpr, []*ir.Buffer) {
	if opts.NumInputs <= 0 {
		opts.NumInputs = 2
	}
	if opts.NumEqns <= 0 {
		opts.NumEqns = 8
	}
	if opts.MaxRank <= 0 {
		opts.MaxRank = 2
	}
	if opts.MaxDim <= 0 {
		opts.MaxDim = 4
	}
	if len(opts.DTypes) == 0 {
		opts.DTypes = []ir.DType{ir.Float32}
	}
	shape := make([]int, r.IntN(opts.MaxRank+1))
	for i := range shape {
		shape[i] = 1 + r.IntN(opts.MaxDim)
	}
	g := &gen{r: r, opts: opts}
	var args []*ir.Buffer
	for range opts.NumInputs {
		a := ir.Aval{Shape: shape, DType: opts.DTypes[r.IntN(len(opts.DTypes))]}
		g.in(a)
		args = append(args, randomBuffer(r, a))
	}
	for range opts.NumEqns {
		g.step(0)
	}
	outs := []ir.Atom{g.pool[len(g.pool)-1]}
	for range r.IntN(3) {
		outs = append(outs, g.pool[r.IntN(len(g.pool))])
	}
	g.j.Outvars = outs
	return &g.j, args
}

// randomBuffer fills a buffer of type a: floats uniform in [-2, 2), integers
// in [-5, 5], random bools.
func randomBuffer(r *rand.Rand, a ir.Aval) *ir.Buffer {
	b := ir.NewBuffer(a.DType, a.Shape)
	for i := range b.Len() {
		switch {
		case a.DType.IsFloat():
			b.Set(i, 4*r.Float64()-2)
		case a.DType.IsInt():
			b.Set(i, float64(r.IntN(11)-5))
		default:
			b.Set(i, float64(r.IntN(2)))
		}
	}
	return b
}

// gen builds one (possibly nested) jaxpr: pool holds every variable
// defined so far, which later equations draw their operands from.
type gen struct {
	r    *rand.Rand
	opts Options
	j    ir.Jaxpr
	pool []*ir.Var
}

// in adds an input variable.
func (g *gen) in(a ir.Aval) *ir.Var {
	v := ir.NewVar(a)
	g.j.Invars = append(g.j.Invars, v)
	g.pool = append(g.pool, v)
	return v
}

// emit appends an equation with one result of type out and returns it.
func (g *gen) emit(prim string, params ir.Params, out ir.Aval, in ...ir.Atom) *ir.Var {
	v := ir.NewVar(out)
	g.j.Eqns = append(g.j.Eqns, &ir.Eqn{Prim: prim, Params: params, In: in, Out: []*ir.Var{v}})
	g.pool = append(g.pool, v)
	return v
}

// pick returns a random pool variable satisfying ok, or nil.
func (g *gen) pick(ok func(ir.Aval) bool) *ir.Var {
	var c []*ir.Var
	for _, v := range g.pool {
		if ok(v.Aval) {
			c = append(c, v)
		}
	}
	if len(c) == 0 {
		return nil
	}
	return c[g.r.IntN(len(c))]
}

// latest returns the most recent pool variable of type a, or nil.
func (g *gen) latest(a ir.Aval) *ir.Var {
	for i := len(g.pool) - 1; i >= 0; i-- {
		if g.pool[i].Aval.TypeMatch(a) {
			return g.pool[i]
		}
	}
	return nil
}

// isFloat, isInt, isNum and anyAval are pick filters.
func isFloat(a ir.Aval) bool { return a.DType.IsFloat() }
func isInt(a ir.Aval) bool   { return a.DType.IsInt() }
func isNum(a ir.Aval) bool   { return a.DType != ir.Bool }
func anyAval(ir.Aval) bool   { return true }

// strong returns a's type without the weak flag, with a new shape.
func strong(a ir.Aval, shape []int) ir.Aval {
	return ir.Aval{DType: a.DType, Shape: slices.Clone(shape)}
}

// step adds one random operation (retrying until one applies) at the given
// nesting depth.
func (g *gen) step(depth int) {
	kinds := []func() bool{g.unaryFloat, g.unaryInt, g.binary, g.binary, g.selectN, g.convert, g.reduce, g.broadcast, g.clamp}
	if g.opts.Layout {
		kinds = append(kinds, g.transpose, g.reshape, g.slice, g.pad, g.concatenate, g.iota, g.dot)
	}
	if g.opts.ControlFlow && depth < 2 {
		kinds = append(kinds, func() bool { return g.cond(depth) }, func() bool { return g.scan(depth) }, func() bool { return g.while(depth) })
	}
	for !kinds[g.r.IntN(len(kinds))]() {
	}
}

// unaryFloat applies a float unary primitive, guarding its domain.
func (g *gen) unaryFloat() bool {
	v := g.pick(isFloat)
	if v == nil {
		return false
	}
	a := strong(v.Aval, v.Aval.Shape)
	one := ir.Literal{Value: 1, Aval: ir.Aval{DType: a.DType}}
	switch k := g.r.IntN(5); k {
	case 0: // safe everywhere
		prims := []string{ir.Neg, ir.Sin, ir.Cos, ir.Tanh, ir.Abs, ir.Logistic, ir.Floor, ir.Ceil, ir.Sign}
		g.emit(prims[g.r.IntN(len(prims))], nil, a, v)
	case 1: // positive domain: f(|x| + 1)
		p := g.emit(ir.Add, nil, a, g.emit(ir.Abs, nil, a, v), one)
		prims := []string{ir.Log, ir.Sqrt, ir.Rsqrt, ir.Log1p}
		g.emit(prims[g.r.IntN(len(prims))], nil, a, p)
	case 2: // fast-growing: f(tanh x)
		prims := []string{ir.Exp, ir.Expm1, ir.Tan}
		g.emit(prims[g.r.IntN(len(prims))], nil, a, g.emit(ir.Tanh, nil, a, v))
	case 3:
		g.emit(ir.IntegerPow, ir.Params{"y": 2 + g.r.IntN(2)}, a, v)
	default: // pow(|x| + 1, tanh y)
		base := g.emit(ir.Add, nil, a, g.emit(ir.Abs, nil, a, v), one)
		g.emit(ir.Pow, nil, a, base, g.emit(ir.Tanh, nil, a, g.sameType(v)))
	}
	return true
}

// sameType returns a random pool variable with v's type (possibly v).
func (g *gen) sameType(v *ir.Var) *ir.Var {
	return g.pick(func(a ir.Aval) bool { return a.TypeMatch(v.Aval) })
}

// unaryInt applies an integer unary primitive.
func (g *gen) unaryInt() bool {
	v := g.pick(isInt)
	if v == nil {
		return false
	}
	prims := []string{ir.Neg, ir.Abs, ir.Sign, ir.Not}
	g.emit(prims[g.r.IntN(len(prims))], nil, strong(v.Aval, v.Aval.Shape), v)
	return true
}

// operand returns a second operand for v: a pool variable of v's dtype and
// shape, a scalar of its dtype, or a literal.
func (g *gen) operand(v *ir.Var) ir.Atom {
	if g.r.IntN(4) == 0 {
		val := float64(g.r.IntN(5) - 2)
		if v.Aval.DType.IsFloat() {
			val = float64(g.r.IntN(9)-4) / 2
		} else if v.Aval.DType == ir.Bool {
			val = float64(g.r.IntN(2))
		}
		return ir.Literal{Value: val, Aval: ir.Aval{DType: v.Aval.DType}}
	}
	return g.pick(func(a ir.Aval) bool {
		return a.DType == v.Aval.DType && (len(a.Shape) == 0 || slices.Equal(a.Shape, v.Aval.Shape))
	})
}

// binary applies an elementwise binary primitive or a comparison.
func (g *gen) binary() bool {
	v := g.pick(anyAval)
	w := g.operand(v)
	if wv, ok := w.(*ir.Var); ok && g.r.IntN(2) == 0 {
		v, w = wv, v // operand order matters for sub, div, rem and comparisons
	}
	shape := w.Type().Shape
	if len(shape) == 0 {
		shape = v.Aval.Shape
	}
	dt := v.Aval.DType
	var prims []string
	switch {
	case dt.IsFloat():
		prims = []string{ir.Add, ir.Sub, ir.Mul, ir.Max, ir.Min, ir.Gt, ir.Le, ir.Eq, ir.Ne}
	case dt.IsInt():
		prims = []string{ir.Add, ir.Sub, ir.Mul, ir.Max, ir.Min, ir.And, ir.Or, ir.Div, ir.Rem, ir.Lt, ir.Ge, ir.Eq}
	default:
		prims = []string{ir.And, ir.Or, ir.Ne, ir.Eq}
	}
	p := prims[g.r.IntN(len(prims))]
	out := ir.Aval{DType: dt, Shape: slices.Clone(shape)}
	if ir.IsCompare(p) {
		out.DType = ir.Bool
	}
	if dt.IsFloat() && g.r.IntN(6) == 0 { // x / (|y| + 1)
		a := strong(w.Type(), w.Type().Shape)
		d := g.emit(ir.Add, nil, a, g.emit(ir.Abs, nil, a, w), ir.Literal{Value: 1, Aval: ir.Aval{DType: dt}})
		g.emit(ir.Div, nil, strong(v.Aval, shape), v, d)
		return true
	}
	g.emit(p, nil, out, v, w)
	return true
}

// selectN emits select_n on a comparison (bool) or a clamped int32 index.
func (g *gen) selectN() bool {
	v := g.pick(anyAval)
	c1 := g.sameType(v)
	a := strong(v.Aval, v.Aval.Shape)
	if g.r.IntN(3) == 0 {
		idx := g.pick(func(b ir.Aval) bool {
			return b.DType == ir.Int32 && (len(b.Shape) == 0 || slices.Equal(b.Shape, a.Shape))
		})
		if idx != nil {
			g.emit(ir.SelectN, nil, a, idx, v, c1, g.sameType(v))
			return true
		}
	}
	pred := g.pick(func(b ir.Aval) bool {
		return b.DType == ir.Bool && (len(b.Shape) == 0 || slices.Equal(b.Shape, a.Shape))
	})
	if pred == nil {
		return false
	}
	g.emit(ir.SelectN, nil, a, pred, v, c1)
	return true
}

// convert emits convert_element_type to a random dtype (or bool).
func (g *gen) convert() bool {
	v := g.pick(anyAval)
	dts := append(slices.Clone(g.opts.DTypes), ir.Bool)
	dt := dts[g.r.IntN(len(dts))]
	if dt == v.Aval.DType {
		return false
	}
	g.emit(ir.ConvertElementType, ir.Params{"new_dtype": dt, "weak_type": false, "sharding": nil},
		ir.Aval{DType: dt, Shape: slices.Clone(v.Aval.Shape)}, v)
	return true
}

// reduce emits a reduction over random axes, sometimes broadcast back to
// the operand's shape.
func (g *gen) reduce() bool {
	v := g.pick(func(a ir.Aval) bool { return len(a.Shape) > 0 })
	if v == nil {
		return false
	}
	prims := []string{ir.ReduceMax, ir.ReduceMin}
	if v.Aval.DType != ir.Bool {
		prims = append(prims, ir.ReduceSum, ir.ReduceSum)
	}
	var axes, kept, shape []int
	for d, n := range v.Aval.Shape {
		if g.r.IntN(2) == 0 {
			axes = append(axes, d)
		} else {
			kept = append(kept, d)
			shape = append(shape, n)
		}
	}
	if len(axes) == 0 {
		axes, kept, shape = []int{0}, kept[1:], shape[1:]
	}
	red := g.emit(prims[g.r.IntN(len(prims))], ir.Params{"axes": axes, "out_sharding": nil}, strong(v.Aval, shape), v)
	if g.r.IntN(2) == 0 {
		g.emit(ir.BroadcastInDim, ir.Params{"shape": slices.Clone(v.Aval.Shape), "broadcast_dimensions": kept, "sharding": nil},
			strong(v.Aval, v.Aval.Shape), red)
	}
	return true
}

// broadcast emits broadcast_in_dim of a scalar to the shape of another variable.
func (g *gen) broadcast() bool {
	s := g.pick(func(a ir.Aval) bool { return len(a.Shape) == 0 })
	t := g.pick(func(a ir.Aval) bool { return len(a.Shape) > 0 })
	if s == nil || t == nil {
		return false
	}
	g.emit(ir.BroadcastInDim, ir.Params{"shape": slices.Clone(t.Aval.Shape), "broadcast_dimensions": []int{}, "sharding": nil},
		strong(s.Aval, t.Aval.Shape), s)
	return true
}

// clamp emits clamp with literal bounds lo < hi.
func (g *gen) clamp() bool {
	v := g.pick(isNum)
	if v == nil {
		return false
	}
	lo := float64(g.r.IntN(3) - 2)
	lit := func(x float64) ir.Literal { return ir.Literal{Value: x, Aval: ir.Aval{DType: v.Aval.DType}} }
	g.emit(ir.Clamp, nil, strong(v.Aval, v.Aval.Shape), lit(lo), v, lit(lo+1+float64(g.r.IntN(3))))
	return true
}
