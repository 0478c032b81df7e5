package cpu

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// program is a compiled jaxpr: a list of steps over numbered value slots.
type program struct {
	nslots     int
	constSlots []int
	consts     []*ir.Buffer
	inSlots    []int
	inAvals    []ir.Aval
	outs       []ref
	// fresh marks outputs written by a fused kernel into a buffer
	// allocated for the call (they need no aliasing check).
	fresh []bool
	steps []step
	// nscratch is the number of scratch entries a state has (one per step
	// and per kernel a step runs).
	nscratch int
	// temp marks slots whose buffers a state keeps and reuses across calls
	// (values that are not program outputs).
	temp []bool
	// free holds idle states for reuse. Unlike a sync.Pool it is not
	// emptied by the garbage collector, so a cached call allocates only
	// its outputs even when its outputs trigger collections.
	mu      sync.Mutex
	free    []*state
	maxIdle int
}

// maxIdleStates bounds how many idle states (with their buffers) a program
// keeps, per GOMAXPROCS.
const maxIdleStates = 4

// ref is a step operand: a slot, or (slot < 0) a literal's constant buffer.
type ref struct {
	slot int
	lit  *ir.Buffer
}

// step is one unit of execution: a fused kernel, an evaluated equation, or
// a control-flow equation.
type step interface {
	run(st *state) error
}

// state is the per-call mutable state of a program: the slot values and
// each step's scratch. Idle states are kept for reuse, so one program
// serves concurrent calls with one state each.
type state struct {
	p       *program
	env     []*ir.Buffer
	owned   []*ir.Buffer
	scratch []any
}

// get returns an operand's buffer.
func (st *state) get(r ref) *ir.Buffer {
	if r.slot < 0 {
		return r.lit
	}
	return st.env[r.slot]
}

// dest returns the buffer a step writes slot's value into: the state's
// reusable buffer for temporaries, a fresh one for program outputs.
func (st *state) dest(slot int, a ir.Aval) *ir.Buffer {
	if !st.p.temp[slot] {
		return ir.NewBuffer(a.DType, a.Shape)
	}
	b := st.owned[slot]
	if b == nil {
		b = ir.NewBuffer(a.DType, a.Shape)
		st.owned[slot] = b
	}
	return b
}

// newState returns a fresh state for p.
func (p *program) newState() *state {
	return &state{p: p, env: make([]*ir.Buffer, p.nslots), owned: make([]*ir.Buffer, p.nslots), scratch: make([]any, p.nscratch)}
}

// call runs the program with an idle state, or a new one.
func (p *program) call(args []*ir.Buffer) ([]*ir.Buffer, error) {
	var st *state
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		st = p.free[n-1]
		p.free[n-1] = nil
		p.free = p.free[:n-1]
	}
	p.mu.Unlock()
	if st == nil {
		st = p.newState()
	}
	out, err := p.run(st, args)
	p.mu.Lock()
	if len(p.free) < p.maxIdle {
		p.free = append(p.free, st)
	}
	p.mu.Unlock()
	return out, err
}

// run binds args, runs every step and returns freshly allocated results
// that share no memory with the state's reusable buffers or constants.
func (p *program) run(st *state, args []*ir.Buffer) (out []*ir.Buffer, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("cpu: internal error while executing (please report): %v", r)
		}
		clear(st.env)
	}()
	for i, s := range p.constSlots {
		st.env[s] = p.consts[i]
	}
	for i, s := range p.inSlots {
		st.env[s] = args[i]
	}
	for _, s := range p.steps {
		if err := s.run(st); err != nil {
			return nil, err
		}
	}
	out = make([]*ir.Buffer, len(p.outs))
	for i, r := range p.outs {
		b := st.get(r)
		if r.slot < 0 || !p.fresh[i] && p.sharesMemory(st, b) {
			b = copyBuffer(b)
		}
		out[i] = b
	}
	return out, nil
}

// sharesMemory reports whether b's data overlaps a buffer the program keeps
// (a reusable temporary or a constant), as a reshape evaluated in place
// would; such results are copied before they are returned.
func (p *program) sharesMemory(st *state, b *ir.Buffer) bool {
	for _, o := range st.owned {
		if o != nil && overlaps(o.Data, b.Data) {
			return true
		}
	}
	for _, c := range p.consts {
		if overlaps(c.Data, b.Data) {
			return true
		}
	}
	return false
}

// overlaps reports whether two data slices share memory.
func overlaps(a, b any) bool {
	pa, na := span(a)
	pb, nb := span(b)
	return na > 0 && nb > 0 && pa < pb+nb && pb < pa+na
}

// span returns the address and byte length of a data slice.
func span(d any) (uintptr, uintptr) {
	switch d := d.(type) {
	case []float32:
		return uintptr(unsafe.Pointer(unsafe.SliceData(d))), uintptr(len(d)) * 4
	case []float64:
		return uintptr(unsafe.Pointer(unsafe.SliceData(d))), uintptr(len(d)) * 8
	case []int32:
		return uintptr(unsafe.Pointer(unsafe.SliceData(d))), uintptr(len(d)) * 4
	case []int64:
		return uintptr(unsafe.Pointer(unsafe.SliceData(d))), uintptr(len(d)) * 8
	case []bool:
		return uintptr(unsafe.Pointer(unsafe.SliceData(d))), uintptr(len(d))
	}
	return 0, 0
}

// copyBuffer returns a deep copy of b.
func copyBuffer(b *ir.Buffer) *ir.Buffer {
	c := ir.NewBuffer(b.DType, b.Shape)
	switch d := c.Data.(type) {
	case []float32:
		copy(d, b.Data.([]float32))
	case []float64:
		copy(d, b.Data.([]float64))
	case []int32:
		copy(d, b.Data.([]int32))
	case []int64:
		copy(d, b.Data.([]int64))
	case []bool:
		copy(d, b.Data.([]bool))
	}
	return c
}

// evalStep runs one equation with the reference evaluator.
type evalStep struct {
	eqn  *ir.Eqn
	in   []ref
	out  []int
	self int // index of this step (for its scratch)
}

// run evaluates the equation on its operands' buffers.
func (s *evalStep) run(st *state) error {
	args, _ := st.scratch[s.self].([]*ir.Buffer)
	if args == nil {
		args = make([]*ir.Buffer, len(s.in))
		st.scratch[s.self] = args
	}
	for i, r := range s.in {
		args[i] = st.get(r)
	}
	res, err := eval.Apply(s.eqn.Prim, s.eqn.Params, args)
	clear(args)
	if err != nil {
		return fmt.Errorf("cpu: %w%s", err, at(s.eqn))
	}
	return bindResults(st, s.eqn, s.out, res)
}

// bindResults stores a step's results in their slots after checking their
// types against the equation's output variables.
func bindResults(st *state, e *ir.Eqn, slots []int, res []*ir.Buffer) error {
	if len(res) != len(slots) {
		return fmt.Errorf("cpu: %s produced %d results, the equation has %d outputs%s", e.Prim, len(res), len(slots), at(e))
	}
	for i, b := range res {
		if !b.Aval().TypeMatch(e.Out[i].Aval) {
			return fmt.Errorf("cpu: %s result %d has type %s, want %s%s", e.Prim, i, b.Aval(), e.Out[i].Aval, at(e))
		}
		st.env[slots[i]] = b
	}
	return nil
}

// at describes where an equation was staged, for error messages.
func at(e *ir.Eqn) string {
	if e.Source != nil {
		return " (staged at " + e.Source.String() + ")"
	}
	return ""
}
