package cpu

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/fusion"
)

// planned is a jaxpr split into fusion groups, with its nested jaxprs
// planned too.
type planned struct {
	j      *ir.Jaxpr
	consts []*ir.Buffer
	groups []*fusion.Group
	// nested holds the plans of an equation's nested jaxprs: cond branches
	// in order; scan and jit their body; while its cond then its body.
	nested map[*ir.Eqn][]*planned
	// fused marks the groups compile turned into one kernel (the others
	// are evaluated equation by equation).
	fused map[*fusion.Group]bool
	// evalReduce marks fused groups whose final reduction (over axes the
	// kernels do not reduce) is evaluated after the kernel.
	evalReduce map[*fusion.Group]bool
	// products describes how compile runs each dot_general it turned into
	// a matrix product.
	products map[*ir.Eqn]string
}

// plan plans j and, recursively, the jaxprs nested in its equations.
func plan(j *ir.Jaxpr, consts []*ir.Buffer) (*planned, error) {
	if err := wellFormed(j); err != nil {
		return nil, err
	}
	j = foldTransposedProducts(j)
	p := &planned{j: j, consts: consts, groups: fusion.Plan(j), nested: map[*ir.Eqn][]*planned{}, fused: map[*fusion.Group]bool{}, evalReduce: map[*fusion.Group]bool{},
		products: map[*ir.Eqn]string{}}
	for i, e := range j.Eqns {
		subs, err := nestedJaxprs(e)
		if err != nil {
			return nil, fmt.Errorf("%s (equation %d): %w", e.Prim, i, err)
		}
		for _, cj := range subs {
			sp, err := plan(cj.Jaxpr, cj.Consts)
			if err != nil {
				return nil, fmt.Errorf("in the body of %s (equation %d): %w", e.Prim, i, err)
			}
			p.nested[e] = append(p.nested[e], sp)
		}
	}
	return p, nil
}

// nestedJaxprs returns the closed jaxprs an equation's parameters hold, in
// the order plan stores them.
func nestedJaxprs(e *ir.Eqn) ([]*ir.ClosedJaxpr, error) {
	var keys []string
	switch e.Prim {
	case ir.Cond:
		bs, ok := e.Params["branches"].([]*ir.ClosedJaxpr)
		if !ok || len(bs) == 0 {
			return nil, fmt.Errorf("parameter branches is %T, want a non-empty []*ir.ClosedJaxpr", e.Params["branches"])
		}
		for k, b := range bs {
			if b == nil || b.Jaxpr == nil {
				return nil, fmt.Errorf("branch %d is nil", k)
			}
		}
		return bs, nil
	case ir.Scan, ir.Jit:
		keys = []string{"jaxpr"}
	case ir.While:
		keys = []string{"cond_jaxpr", "body_jaxpr"}
	default:
		return nil, nil
	}
	var out []*ir.ClosedJaxpr
	for _, k := range keys {
		cj, ok := e.Params[k].(*ir.ClosedJaxpr)
		if !ok || cj == nil || cj.Jaxpr == nil {
			return nil, fmt.Errorf("parameter %s is %T, want a non-nil *ir.ClosedJaxpr", k, e.Params[k])
		}
		if len(cj.Consts) != len(cj.Jaxpr.Constvars) {
			return nil, fmt.Errorf("parameter %s has %d constvars but %d constant values", k, len(cj.Jaxpr.Constvars), len(cj.Consts))
		}
		out = append(out, cj)
	}
	return out, nil
}

// wellFormed rejects the nil equations, variables and operands the planner
// cannot handle.
func wellFormed(j *ir.Jaxpr) error {
	for i, v := range append(append([]*ir.Var{}, j.Constvars...), j.Invars...) {
		if v == nil {
			return fmt.Errorf("jaxpr input %d is a nil variable", i)
		}
	}
	for i, e := range j.Eqns {
		if e == nil {
			return fmt.Errorf("equation %d is nil", i)
		}
		for k, a := range e.In {
			if v, ok := a.(*ir.Var); a == nil || ok && v == nil {
				return fmt.Errorf("%s (equation %d): operand %d is nil", e.Prim, i, k)
			}
		}
		for k, v := range e.Out {
			if v == nil {
				return fmt.Errorf("%s (equation %d): output %d is a nil variable", e.Prim, i, k)
			}
		}
	}
	for i, a := range j.Outvars {
		if v, ok := a.(*ir.Var); a == nil || ok && v == nil {
			return fmt.Errorf("jaxpr output %d is nil", i)
		}
	}
	return nil
}
