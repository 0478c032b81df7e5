// Package fusion partitions a jaxpr's equations into groups that a backend
// can run as one kernel each: chains of elementwise equations (fused into a
// single loop over the output elements), reductions together with their
// elementwise producers, and single non-fusible equations.
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
	// dot_general, reshape, transpose, concatenate, pad, slice, squeeze,
	// debug_print, non-scalar broadcasts, ...
	Other
)

// String returns "elementwise", "reduction" or "other".
func (k Kind) String() string {
	switch k {
	case Elementwise:
		return "elementwise"
	case Reduction:
		return "reduction"
	case Other:
		return "other"
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
	// Shape is the iteration shape: the elementwise output shape, or the
	// reduced operand's shape for a Reduction. Nil for Other.
	Shape []int
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
func Plan(j *ir.Jaxpr) []*Group {
	p := planner{defGroup: map[*ir.Var]int{}, open: map[string]int{}}
	for _, e := range j.Eqns {
		p.add(e)
	}
	p.fillInputsOutputs(j)
	return p.groups
}

// planner holds Plan's state.
type planner struct {
	groups []*Group
	// defGroup maps a variable to the index of the group defining it.
	defGroup map[*ir.Var]int
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
	default:
		p.newGroup(Other, e, nil)
	}
}

// joinable returns the open group of shape that e may join: all of e's
// operands must be defined before or in that group, so running the group at
// its position keeps a valid order.
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
