// Package fusion partitions a jaxpr's equations into groups that a backend
// can run as one kernel each: chains of elementwise equations (fused into a
// single loop over the output elements), reductions together with their
// elementwise producers, matrix products (dot_general) together with their
// elementwise consumers (the product's epilogue), and single non-fusible
// equations.
//
// The analysis is backend independent; the CPU backend (jit/cpu) and the GPU
// backend both consume Plan's groups. Plan only looks at one jaxpr: nested
// jaxprs (cond branches, scan/while bodies, jit) are planned separately by
// calling Plan on them.
package fusion

import (
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// Kind classifies a group.
type Kind int

const (
	// Elementwise is a chain of elementwise equations over one iteration
	// shape: unary and binary ops, comparisons, select_n, clamp,
	// convert_element_type, iota, and broadcast_in_dim of a one-element
	// operand. Every operand is either a scalar (one element, including
	// literals) or has exactly the group's Shape.
	Elementwise Kind = iota
	// Reduction is an optional elementwise chain (as in Elementwise, over
	// Shape) followed by exactly one reduce_sum/reduce_max/reduce_min as the
	// last equation, whose operand has Shape.
	Reduction
	// Other is exactly one equation that is not fused: control flow,
	// reshape, transpose, concatenate, pad, slice, squeeze, debug_print,
	// non-scalar broadcasts, ...
	Other
	// Contraction is a dot_general (Product) followed by an elementwise
	// chain over its result's shape (Shape) that consumes the product
	// (Epilogue): bias adds, activations, scales, residual adds, which a
	// backend can apply to each block of the product as it is finished.
	// Converts that only the product reads may come before it (Prologue),
	// for its packing to apply. Split separates the parts for a backend
	// that runs them apart.
	Contraction
)

// String returns "elementwise", "reduction", "other" or "contraction".
func (k Kind) String() string {
	switch k {
	case Elementwise:
		return "elementwise"
	case Reduction:
		return "reduction"
	case Other:
		return "other"
	case Contraction:
		return "contraction"
	}
	return "kind?"
}

// Group is a set of equations run together. Groups returned by Plan are in a
// valid execution order: every group's Inputs are jaxpr invars or
// constvars, or Outputs of earlier groups.
type Group struct {
	Kind Kind
	// Eqns are the group's equations in a valid execution order.
	Eqns []*ir.Eqn
	// Inputs are the variables read by Eqns and defined outside the group
	// (invars, constvars, earlier groups' outputs), in first-use order,
	// without duplicates. Literals are not listed: read them from Eqn.In.
	Inputs []*ir.Var
	// Outputs are the variables defined by Eqns that are needed outside the
	// group (by later groups or the jaxpr's outvars), in definition order.
	// Values not listed are temporaries a fused kernel need not store.
	Outputs []*ir.Var
	// Shape is the iteration shape: the elementwise output shape, the
	// reduced operand's shape for a Reduction, the product's shape for a
	// Contraction. Nil for Other.
	Shape []int
}

// Product returns a Contraction group's dot_general (after its
// prologue), or nil for other groups.
func (g *Group) Product() *ir.Eqn {
	if g.Kind != Contraction {
		return nil
	}
	return g.Eqns[g.productIndex()]
}

// productIndex is the position of a Contraction's dot_general in Eqns.
func (g *Group) productIndex() int {
	return slices.IndexFunc(g.Eqns, func(e *ir.Eqn) bool { return e.Prim == ir.DotGeneral })
}

// Prologue returns the equations of a Contraction group before its
// product: the converts (PackingProducer) whose results only the product
// reads, which the packing of its operands can apply.
func (g *Group) Prologue() []*ir.Eqn {
	if g.Kind != Contraction {
		return nil
	}
	return g.Eqns[:g.productIndex()]
}

// Split returns a Contraction group as separate groups in a valid order:
// each convert of its prologue (Elementwise) and each broadcast its
// epilogue reads in place (Other), the product (Other) and the
// elementwise rest of the epilogue (absent when empty); any other group as
// itself.
func (g *Group) Split() []*Group {
	if g.Kind != Contraction {
		return []*Group{g}
	}
	pi := g.productIndex()
	var parts [][]*ir.Eqn
	var kinds []Kind
	var shapes [][]int
	add := func(k Kind, shape []int, eqns ...*ir.Eqn) {
		parts, kinds, shapes = append(parts, eqns), append(kinds, k), append(shapes, shape)
	}
	for _, e := range g.Eqns[:pi] {
		add(Elementwise, e.Out[0].Aval.Shape, e)
	}
	var chain []*ir.Eqn
	for _, e := range g.Eqns[pi+1:] {
		if Fusible(e) {
			chain = append(chain, e)
		} else {
			add(Other, nil, e)
		}
	}
	add(Other, nil, g.Eqns[pi])
	if len(chain) > 0 {
		add(Elementwise, g.Shape, chain...)
	}
	out := make([]*Group, len(parts))
	for i, eqns := range parts {
		out[i] = g.part(kinds[i], eqns, shapes[i], parts)
	}
	return out
}

// Epilogue returns a Contraction group's equations after the product as
// a group (of kind Elementwise, though it may hold the broadcasts that
// EpilogueBroadcast accepts), with the product among its Inputs; nil when
// there are none.
func (g *Group) Epilogue() *Group {
	if g.Kind != Contraction {
		return nil
	}
	pi := g.productIndex()
	if pi == len(g.Eqns)-1 {
		return nil
	}
	return g.part(Elementwise, g.Eqns[pi+1:], g.Shape, [][]*ir.Eqn{g.Eqns[:pi+1], g.Eqns[pi+1:]})
}

// PackingProducer reports whether e is a producer of a product's operand
// that packing applies as it reads: a convert_element_type between float
// dtypes stored alike (bfloat16 or float16 to float32, which the backends
// store as float32 values already rounded), so the packing reads the
// convert's operand in place and the converted copy is never written.
func PackingProducer(e *ir.Eqn) bool {
	if e.Prim != ir.ConvertElementType || len(e.In) != 1 || len(e.Out) != 1 {
		return false
	}
	from, to := e.In[0].Type().DType, e.Out[0].Aval.DType
	return (from == ir.BFloat16 || from == ir.Float16) && to == ir.Float32
}

// part returns eqns, one of parts (a partition of g's equations), as a
// group: its Inputs are the values it reads and does not define, its
// Outputs those it defines that g outputs or another part reads.
func (g *Group) part(kind Kind, eqns []*ir.Eqn, shape []int, parts [][]*ir.Eqn) *Group {
	h := &Group{Kind: kind, Eqns: eqns, Shape: shape}
	mine := map[*ir.Var]bool{}
	for _, e := range eqns {
		for _, v := range e.Out {
			mine[v] = true
		}
	}
	readElsewhere := map[*ir.Var]bool{}
	for _, p := range parts {
		for _, e := range p {
			for _, a := range e.In {
				if v, ok := a.(*ir.Var); ok && mine[v] && !slices.Contains(eqns, e) {
					readElsewhere[v] = true
				}
			}
		}
	}
	for _, e := range eqns {
		for _, a := range e.In {
			if v, ok := a.(*ir.Var); ok && !mine[v] && !slices.Contains(h.Inputs, v) {
				h.Inputs = append(h.Inputs, v)
			}
		}
	}
	for _, e := range eqns {
		for _, v := range e.Out {
			if slices.Contains(g.Outputs, v) || readElsewhere[v] {
				h.Outputs = append(h.Outputs, v)
			}
		}
	}
	return h
}

// Fusible reports whether eqn can be part of an Elementwise or Reduction
// group's elementwise chain: an elementwise primitive, iota, or a
// broadcast_in_dim of a one-element operand, with one output whose
// non-scalar operands all have the output's shape.
func Fusible(eqn *ir.Eqn) bool {
	if len(eqn.Out) != 1 {
		return false
	}
	switch {
	case ir.IsElementwise(eqn.Prim), eqn.Prim == ir.Iota:
	case eqn.Prim == ir.BroadcastInDim:
		if len(eqn.In) != 1 || eqn.In[0].Type().Size() != 1 {
			return false
		}
	default:
		return false
	}
	shape := eqn.Out[0].Aval.Shape
	for _, a := range eqn.In {
		t := a.Type()
		if t.Size() != 1 && !slices.Equal(t.Shape, shape) {
			return false
		}
	}
	return true
}

// IsReduce reports whether prim is reduce_sum, reduce_max or reduce_min.
func IsReduce(prim string) bool {
	return prim == ir.ReduceSum || prim == ir.ReduceMax || prim == ir.ReduceMin
}

// Plan partitions j's equations into groups in a valid execution order.
// Every equation of j appears in exactly one group. j is not modified. j
// must be well formed: no nil equations, variables or operands (the
// backends check this before planning).
//
// A dot_general is planned where its result is first used (equations that
// do not depend on it may move before it), so that the operands of its
// epilogue, such as a broadcast bias, are defined before the product.
func Plan(j *ir.Jaxpr) []*Group {
	p := planner{defGroup: map[*ir.Var]int{}, open: map[string]int{}, read: map[*ir.Var]bool{}}
	for _, e := range sinkProducts(j.Eqns) {
		p.add(e)
	}
	p.fillInputsOutputs(j)
	// Drop the groups whose broadcast moved into an epilogue.
	return slices.DeleteFunc(p.groups, func(g *Group) bool { return len(g.Eqns) == 0 })
}

// planner holds Plan's state.
type planner struct {
	groups []*Group
	// defGroup maps a variable to the index of the group defining it.
	defGroup map[*ir.Var]int
	// read marks the variables read by the equations planned so far.
	read map[*ir.Var]bool
	// open maps a shape key to the index of the most recent group of that
	// shape; it still accepts elementwise equations while it is Elementwise
	// (a reduction, once appended, ends it).
	open map[string]int
}

// add places one equation.
func (p *planner) add(e *ir.Eqn) {
	switch {
	case Fusible(e):
		shape := e.Out[0].Aval.Shape
		if g, ok := p.joinable(e, shape); ok {
			p.appendTo(g, e)
			return
		}
		if p.joinEpilogue(e, shape) {
			return
		}
		g := p.newGroup(Elementwise, e, shape)
		p.open[shapeKey(shape)] = g
	case IsReduce(e.Prim) && len(e.In) == 1 && len(e.Out) == 1:
		shape := e.In[0].Type().Shape
		if v, ok := e.In[0].(*ir.Var); ok {
			if g, ok := p.joinable(e, shape); ok && p.defGroup[v] == g {
				p.appendTo(g, e)
				p.groups[g].Kind = Reduction
				return
			}
		}
		p.newGroup(Reduction, e, shape)
	case e.Prim == ir.DotGeneral && len(e.Out) == 1:
		shape := e.Out[0].Aval.Shape
		g := len(p.groups)
		p.groups = append(p.groups, &Group{Kind: Contraction, Shape: slices.Clone(shape)})
		// Operand converts alone in their group, read by nothing else so
		// far, move into the product's prologue.
		for _, a := range e.In {
			v, ok := a.(*ir.Var)
			d, def := p.defGroup[v]
			if ok && def && !p.read[v] && len(p.groups[d].Eqns) == 1 && p.groups[d].Kind == Elementwise && PackingProducer(p.groups[d].Eqns[0]) {
				p.appendTo(g, p.groups[d].Eqns[0])
				p.groups[d].Eqns = nil
			}
		}
		p.appendTo(g, e)
		p.open[shapeKey(shape)] = g
	default:
		p.newGroup(Other, e, nil)
	}
}

// joinable returns the open Elementwise group of shape that e may join:
// all of e's operands must be defined before or in that group, so running
// the group at its position keeps a valid order.
func (p *planner) joinable(e *ir.Eqn, shape []int) (int, bool) {
	g, ok := p.open[shapeKey(shape)]
	if !ok || p.groups[g].Kind != Elementwise {
		return 0, false
	}
	for _, a := range e.In {
		if v, ok := a.(*ir.Var); ok {
			if d, ok := p.defGroup[v]; ok && d > g {
				return 0, false
			}
		}
	}
	return g, true
}

// joinEpilogue adds e to the open Contraction group of its shape when e
// reads the product (or its epilogue) and its other operands are defined
// before the group or by broadcasts that EpilogueBroadcast accepts, each
// alone in its group, read by nothing planned so far, with operands
// defined before the Contraction: those broadcasts move into the epilogue
// (a bias is read in place, never broadcast into memory).
func (p *planner) joinEpilogue(e *ir.Eqn, shape []int) bool {
	g, ok := p.open[shapeKey(shape)]
	if !ok || p.groups[g].Kind != Contraction {
		return false
	}
	reads := false
	var moved []int
	for _, a := range e.In {
		v, ok := a.(*ir.Var)
		if !ok {
			continue
		}
		d, ok := p.defGroup[v]
		switch {
		case !ok:
		case d == g:
			reads = true
		case len(p.groups[d].Eqns) == 1 && EpilogueBroadcast(p.groups[d].Eqns[0]) && !p.read[v] && p.before(p.groups[d].Eqns[0], g):
			moved = append(moved, d)
		case d > g:
			return false
		}
	}
	if !reads {
		return false
	}
	for _, d := range moved {
		if len(p.groups[d].Eqns) == 1 { // not moved already (e reads it twice)
			p.appendTo(g, p.groups[d].Eqns[0])
			p.groups[d].Eqns = nil
		}
	}
	p.appendTo(g, e)
	return true
}

// before reports whether e's operands are all defined before group g.
func (p *planner) before(e *ir.Eqn, g int) bool {
	for _, a := range e.In {
		if v, ok := a.(*ir.Var); ok {
			if d, ok := p.defGroup[v]; ok && d >= g {
				return false
			}
		}
	}
	return true
}

// EpilogueBroadcast reports whether e is a broadcast_in_dim that a
// Contraction's epilogue may read in place: the operand (more than one
// element), without its leading dimensions of size 1, is a trailing part
// of the result's shape, as a bias of the product's last dimension is
// (element i of the result is element i modulo its size of the operand).
func EpilogueBroadcast(e *ir.Eqn) bool {
	if e.Prim != ir.BroadcastInDim || len(e.In) != 1 || len(e.Out) != 1 {
		return false
	}
	in, out := e.In[0].Type(), e.Out[0].Aval
	dims, ok := e.Params["broadcast_dimensions"].([]int)
	r, n := len(in.Shape), len(out.Shape)
	if !ok || in.Size() == 1 || len(dims) != r || r > n || in.DType != out.DType {
		return false
	}
	lead := 0
	for lead < r && in.Shape[lead] == 1 {
		lead++
	}
	for i := lead; i < r; i++ {
		if dims[i] != n-r+i || in.Shape[i] != out.Shape[dims[i]] {
			return false
		}
	}
	return true
}

// sinkProducts returns the equations with each dot_general moved down to
// just before the first equation that reads its result (after the
// products it reads), or to the end; the order stays valid, and only
// dot_generals, which have no effects, move.
func sinkProducts(eqns []*ir.Eqn) []*ir.Eqn {
	out := make([]*ir.Eqn, 0, len(eqns))
	var pending []*ir.Eqn
	var flush func(e *ir.Eqn)
	// flush emits the pending products e reads (and theirs), in order.
	flush = func(e *ir.Eqn) {
		for _, a := range e.In {
			v, ok := a.(*ir.Var)
			if !ok {
				continue
			}
			for i, d := range pending {
				if d.Out[0] == v {
					pending = slices.Delete(pending, i, i+1)
					flush(d)
					out = append(out, d)
					break
				}
			}
		}
	}
	for _, e := range eqns {
		if e.Prim == ir.DotGeneral && len(e.Out) == 1 {
			pending = append(pending, e)
			continue
		}
		flush(e)
		out = append(out, e)
	}
	return append(out, pending...)
}

// newGroup starts a group holding e and returns its index.
func (p *planner) newGroup(k Kind, e *ir.Eqn, shape []int) int {
	var s []int
	if k != Other {
		s = append([]int{}, shape...)
	}
	p.groups = append(p.groups, &Group{Kind: k, Shape: s})
	g := len(p.groups) - 1
	p.appendTo(g, e)
	return g
}

// appendTo adds e to group g.
func (p *planner) appendTo(g int, e *ir.Eqn) {
	p.groups[g].Eqns = append(p.groups[g].Eqns, e)
	for _, v := range e.Out {
		p.defGroup[v] = g
	}
	for _, a := range e.In {
		if v, ok := a.(*ir.Var); ok {
			p.read[v] = true
		}
	}
}

// fillInputsOutputs computes every group's Inputs and Outputs.
func (p *planner) fillInputsOutputs(j *ir.Jaxpr) {
	needed := map[*ir.Var]bool{}
	for _, a := range j.Outvars {
		if v, ok := a.(*ir.Var); ok {
			needed[v] = true
		}
	}
	for gi, g := range p.groups {
		seen := map[*ir.Var]bool{}
		for _, e := range g.Eqns {
			for _, a := range e.In {
				v, ok := a.(*ir.Var)
				if !ok || seen[v] {
					continue
				}
				if d, ok := p.defGroup[v]; ok && d == gi {
					continue
				}
				seen[v] = true
				g.Inputs = append(g.Inputs, v)
				needed[v] = true
			}
		}
	}
	for _, g := range p.groups {
		for _, e := range g.Eqns {
			for _, v := range e.Out {
				if needed[v] {
					g.Outputs = append(g.Outputs, v)
				}
			}
		}
	}
}

// shapeKey is a map key for a shape.
func shapeKey(shape []int) string {
	b := make([]byte, 0, 8*len(shape)+1)
	b = append(b, byte(len(shape)))
	for _, d := range shape {
		for i := 0; i < 8; i++ {
			b = append(b, byte(d>>(8*i)))
		}
	}
	return string(b)
}
