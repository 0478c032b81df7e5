package cpu

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// ctrlStep runs a control-flow equation (cond, scan, while, jit) whose
// bodies were compiled once into programs; each call of the step runs them
// with states kept in the step's scratch, without re-lowering.
type ctrlStep struct {
	eqn   *ir.Eqn
	in    []ref
	out   []int
	progs []*program
	self  int
	// scan parameters, and while's cond_nconsts (nconsts) and body_nconsts (nbody).
	length, nconsts, ncarry, nbody int
	reverse                        bool
}

// ctrlScratch is a ctrlStep's per-state scratch.
type ctrlScratch struct {
	states []*state
	args   []*ir.Buffer
	ops    []*ir.Buffer
}

// controlStep builds the step for e from its compiled bodies.
func controlStep(e *ir.Eqn, in []ref, out []int, progs []*program) (*ctrlStep, error) {
	s := &ctrlStep{eqn: e, in: in, out: out, progs: progs}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("cpu: %s: %s%s", e.Prim, fmt.Sprintf(format, a...), at(e))
	}
	intp := func(key string) (int, error) {
		v, ok := e.Params[key].(int)
		if !ok {
			return 0, bad("parameter %s is %T, want int", key, e.Params[key])
		}
		return v, nil
	}
	var err error
	switch e.Prim {
	case ir.Jit:
		if len(in) != len(progs[0].inSlots) || len(out) != len(progs[0].outs) {
			return nil, bad("%d operands and %d results for a body of %d inputs and %d outputs", len(in), len(out), len(progs[0].inSlots), len(progs[0].outs))
		}
	case ir.Cond:
		if len(in) < 1 {
			return nil, bad("missing the branch index operand")
		}
		for k, p := range progs {
			if len(p.inSlots) != len(in)-1 || len(p.outs) != len(out) {
				return nil, bad("branch %d takes %d operands and returns %d, the equation has %d and %d", k, len(p.inSlots), len(p.outs), len(in)-1, len(out))
			}
		}
	case ir.While:
		if s.nconsts, err = intp("cond_nconsts"); err != nil {
			return nil, err
		}
		if s.nbody, err = intp("body_nconsts"); err != nil {
			return nil, err
		}
		ncarry := len(in) - s.nconsts - s.nbody
		if ncarry < 0 || len(progs[0].inSlots) != s.nconsts+ncarry || len(progs[1].inSlots) != s.nbody+ncarry ||
			len(progs[0].outs) != 1 || len(progs[1].outs) != ncarry || len(out) != ncarry {
			return nil, bad("operand counts do not match cond_nconsts=%d body_nconsts=%d and the bodies", s.nconsts, s.nbody)
		}
	case ir.Scan:
		if s.length, err = intp("length"); err != nil {
			return nil, err
		}
		if s.nconsts, err = intp("num_consts"); err != nil {
			return nil, err
		}
		if s.ncarry, err = intp("num_carry"); err != nil {
			return nil, err
		}
		s.reverse, _ = e.Params["reverse"].(bool)
		nx := len(in) - s.nconsts - s.ncarry
		if nx < 0 || len(progs[0].inSlots) != len(in) || len(progs[0].outs) != len(out) || len(out) < s.ncarry {
			return nil, bad("operand counts do not match num_consts=%d num_carry=%d and the body", s.nconsts, s.ncarry)
		}
		for k := s.nconsts + s.ncarry; k < len(in); k++ {
			t := e.In[k].Type()
			if len(t.Shape) == 0 || t.Shape[0] != s.length {
				return nil, bad("scanned operand %d has type %s, want a leading dimension of length %d", k, t, s.length)
			}
		}
	default:
		return nil, bad("has nested jaxprs but is not control flow")
	}
	return s, nil
}

// scratchOf returns the step's scratch in st, creating it on first use.
func (s *ctrlStep) scratchOf(st *state) *ctrlScratch {
	sc, _ := st.scratch[s.self].(*ctrlScratch)
	if sc == nil {
		sc = &ctrlScratch{states: make([]*state, len(s.progs)), ops: make([]*ir.Buffer, len(s.in))}
		for i, p := range s.progs {
			sc.states[i] = p.newState()
		}
		st.scratch[s.self] = sc
	}
	return sc
}

// run runs the equation's compiled bodies and binds its results.
func (s *ctrlStep) run(st *state) error {
	sc := s.scratchOf(st)
	for i, r := range s.in {
		sc.ops[i] = st.get(r)
	}
	defer clear(sc.ops)
	var res []*ir.Buffer
	var err error
	switch s.eqn.Prim {
	case ir.Jit:
		res, err = s.progs[0].run(sc.states[0], sc.ops)
	case ir.Cond:
		k := clampIndex(sc.ops[0], len(s.progs)-1)
		res, err = s.progs[k].run(sc.states[k], sc.ops[1:])
	case ir.While:
		res, err = s.runWhile(sc)
	case ir.Scan:
		res, err = s.runScan(st, sc)
	}
	if err != nil {
		return fmt.Errorf("in the body of %s%s: %w", s.eqn.Prim, at(s.eqn), err)
	}
	return bindResults(st, s.eqn, s.out, res)
}

// clampIndex reads a branch index (a bool, i32 or i64 scalar) clamped into [0, last].
func clampIndex(b *ir.Buffer, last int) int {
	v := int64(b.At(0))
	if v < 0 {
		return 0
	}
	if v > int64(last) {
		return last
	}
	return int(v)
}

// runWhile loops body while cond holds.
func (s *ctrlStep) runWhile(sc *ctrlScratch) ([]*ir.Buffer, error) {
	cconsts := sc.ops[:s.nconsts]
	bconsts := sc.ops[s.nconsts : s.nconsts+s.nbody]
	carry := append([]*ir.Buffer(nil), sc.ops[s.nconsts+s.nbody:]...)
	for {
		sc.args = append(append(sc.args[:0], cconsts...), carry...)
		c, err := s.progs[0].run(sc.states[0], sc.args)
		if err != nil {
			return nil, err
		}
		if c[0].At(0) == 0 {
			break
		}
		sc.args = append(append(sc.args[:0], bconsts...), carry...)
		if carry, err = s.progs[1].run(sc.states[1], sc.args); err != nil {
			return nil, err
		}
	}
	clear(sc.args)
	return carry, nil
}

// runScan runs the body length times, slicing the scanned operands and
// stacking the per-iteration results.
func (s *ctrlStep) runScan(st *state, sc *ctrlScratch) ([]*ir.Buffer, error) {
	consts := sc.ops[:s.nconsts]
	carry := append([]*ir.Buffer(nil), sc.ops[s.nconsts:s.nconsts+s.ncarry]...)
	xs := sc.ops[s.nconsts+s.ncarry:]
	ys := make([]*ir.Buffer, len(s.out)-s.ncarry)
	for k := range ys {
		ys[k] = st.dest(s.out[s.ncarry+k], s.eqn.Out[s.ncarry+k].Aval)
	}
	for it := 0; it < s.length; it++ {
		i := it
		if s.reverse {
			i = s.length - 1 - it
		}
		sc.args = append(append(sc.args[:0], consts...), carry...)
		for _, x := range xs {
			sc.args = append(sc.args, sliceRow(x, i))
		}
		res, err := s.progs[0].run(sc.states[0], sc.args)
		if err != nil {
			return nil, err
		}
		carry = res[:s.ncarry]
		for k, y := range res[s.ncarry:] {
			setRow(ys[k], i, y)
		}
	}
	clear(sc.args)
	return append(carry[:len(carry):len(carry)], ys...), nil
}

// sliceRow returns a copy of row i (along the leading dimension) of b.
func sliceRow(b *ir.Buffer, i int) *ir.Buffer {
	r := ir.NewBuffer(b.DType, b.Shape[1:])
	n := r.Len()
	copyRange(r, 0, b, i*n, n)
	return r
}

// setRow copies y into row i of the stacked buffer b.
func setRow(b *ir.Buffer, i int, y *ir.Buffer) {
	n := y.Len()
	copyRange(b, i*n, y, 0, n)
}

// copyRange copies n elements from src[so:] to dst[do:] (same dtype).
func copyRange(dst *ir.Buffer, do int, src *ir.Buffer, so, n int) {
	switch d := dst.Data.(type) {
	case []float32:
		copy(d[do:do+n], src.Data.([]float32)[so:])
	case []float64:
		copy(d[do:do+n], src.Data.([]float64)[so:])
	case []int32:
		copy(d[do:do+n], src.Data.([]int32)[so:])
	case []int64:
		copy(d[do:do+n], src.Data.([]int64)[so:])
	case []bool:
		copy(d[do:do+n], src.Data.([]bool)[so:])
	}
}
