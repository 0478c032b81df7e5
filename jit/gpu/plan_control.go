package gpu

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// lowerControl lowers cond, while, scan and nested jit: their jaxprs become
// sub-programs whose kernels join the module, driven by the host at run time.
func (l *lowerer) lowerControl(p *program, e *ir.Eqn) error {
	sub := func(name string) (*program, error) {
		cj, ok := e.Params[name].(*ir.ClosedJaxpr)
		if !ok {
			return nil, eqnError(e, fmt.Errorf("parameter %s is %T, want *ir.ClosedJaxpr", name, e.Params[name]))
		}
		return l.lower(cj)
	}
	count := func(name string) (int, error) {
		n, ok := e.Params[name].(int)
		if !ok {
			return 0, eqnError(e, fmt.Errorf("parameter %s is %T, want int", name, e.Params[name]))
		}
		return n, nil
	}
	ins := p.arrays(e.In)
	switch e.Prim {
	case ir.Jit:
		body, err := sub("jaxpr")
		if err != nil {
			return err
		}
		p.steps = append(p.steps, &callStep{body: body, ins: ins, outs: e.Out})
	case ir.Cond:
		cjs, ok := e.Params["branches"].([]*ir.ClosedJaxpr)
		if !ok || len(cjs) == 0 {
			return eqnError(e, fmt.Errorf("parameter branches is %T, want []*ir.ClosedJaxpr", e.Params["branches"]))
		}
		if t := ins[0].Aval.DType; t != ir.Int32 && t != ir.Bool {
			return eqnError(e, fmt.Errorf("cond index has dtype %v, want int32 or bool", t))
		}
		st := &condStep{index: ins[0], ops: ins[1:], outs: e.Out}
		for _, cj := range cjs {
			b, err := l.lower(cj)
			if err != nil {
				return err
			}
			st.branches = append(st.branches, b)
		}
		p.steps = append(p.steps, st)
	case ir.While:
		cond, err := sub("cond_jaxpr")
		if err != nil {
			return err
		}
		body, err := sub("body_jaxpr")
		if err != nil {
			return err
		}
		nc, err := count("cond_nconsts")
		if err != nil {
			return err
		}
		nb, err := count("body_nconsts")
		if err != nil {
			return err
		}
		if nc+nb > len(ins) {
			return eqnError(e, fmt.Errorf("%d operands but %d+%d constants", len(ins), nc, nb))
		}
		p.steps = append(p.steps, &whileStep{cond: cond, body: body, cconsts: ins[:nc], bconsts: ins[nc : nc+nb], carry: ins[nc+nb:], outs: e.Out})
	case ir.Scan:
		body, err := sub("jaxpr")
		if err != nil {
			return err
		}
		length, err := count("length")
		if err != nil {
			return err
		}
		nconsts, err := count("num_consts")
		if err != nil {
			return err
		}
		ncarry, err := count("num_carry")
		if err != nil {
			return err
		}
		reverse, _ := e.Params["reverse"].(bool)
		if nconsts+ncarry > len(ins) || ncarry > len(e.Out) {
			return eqnError(e, fmt.Errorf("%d operands and %d results do not fit %d constants and %d carries", len(ins), len(e.Out), nconsts, ncarry))
		}
		p.steps = append(p.steps, &scanStep{
			body: body, consts: ins[:nconsts], init: ins[nconsts : nconsts+ncarry], xs: ins[nconsts+ncarry:],
			length: length, reverse: reverse, carryOuts: e.Out[:ncarry], ysOuts: e.Out[ncarry:],
		})
	}
	return nil
}
