package jit

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// trace records the equations staged while one function is being traced.
// Traces nest (a Cond branch is traced inside the function that calls Cond);
// each goroutine has its own stack of active traces, and every operation is
// staged into the innermost one (JAX's "omnistaging"): values of outer
// traces and concrete arrays it reads are captured as constants.
type trace struct {
	parent *trace
	fnName string // the traced function, for messages
	kind   string // "jit", "cond", "scan", "while", "make_jaxpr"

	invars   []*ir.Var
	argNames []string // one per invar, for messages ("x", "params.W")
	eqns     []*ir.Eqn

	constvars []*ir.Var
	constSrc  []*value // what each constvar stands for: concrete data or an outer tracer
	captured  map[*value]*ir.Var

	stack *traceStack // the goroutine's stack this trace is on
	done  bool
}

// traceStack is one goroutine's stack of active traces. Only that goroutine
// touches it, so it needs no lock.
type traceStack struct {
	gid    int64
	traces []*trace
}

func (s *traceStack) top() *trace { return s.traces[len(s.traces)-1] }

var (
	activeTraces atomic.Int64
	stacksMu     sync.Mutex
	stacks       = map[int64]*traceStack{}
)

// goid returns the current goroutine's id (parsed from its stack header).
// It is only called while some trace is active.
func goid() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseInt(string(b), 10, 64)
	return id
}

// currentTrace returns the innermost active trace of this goroutine, or nil.
// It finds the goroutine from the stack header, so operations prefer
// traceOf, which finds it from a tracer operand.
func currentTrace() *trace {
	if activeTraces.Load() == 0 {
		return nil
	}
	gid := goid()
	stacksMu.Lock()
	defer stacksMu.Unlock()
	if s := stacks[gid]; s != nil {
		return s.top()
	}
	return nil
}

// traceOf returns the innermost active trace of the goroutine running an
// operation on args: known from any tracer among them (tracers are used on
// the goroutine that traces them), else looked up.
func traceOf(args []Array) *trace {
	for _, a := range args {
		if t := a.val().t; t != nil && !t.done {
			return t.stack.top()
		}
	}
	return currentTrace()
}

// pushTrace starts a new trace nested in the current one (if any).
func pushTrace(kind, fnName string) *trace {
	gid := goid()
	stacksMu.Lock()
	defer stacksMu.Unlock()
	s := stacks[gid]
	if s == nil {
		s = &traceStack{gid: gid}
		stacks[gid] = s
	}
	t := &trace{kind: kind, fnName: fnName, captured: map[*value]*ir.Var{}, stack: s}
	if len(s.traces) > 0 {
		t.parent = s.top()
	}
	s.traces = append(s.traces, t)
	activeTraces.Add(1)
	return t
}

// pop ends t, which must be the innermost trace of this goroutine.
func (t *trace) pop() {
	stacksMu.Lock()
	defer stacksMu.Unlock()
	s := t.stack
	if n := len(s.traces); n > 0 && s.traces[n-1] == t {
		s.traces = s.traces[:n-1]
	}
	if len(s.traces) == 0 {
		delete(stacks, s.gid)
	}
	t.done = true
	activeTraces.Add(-1)
}

// newArg adds an input of type a named name and returns its tracer.
func (t *trace) newArg(a ir.Aval, name string) Array {
	v := ir.NewVar(a)
	t.invars = append(t.invars, v)
	t.argNames = append(t.argNames, name)
	return Array{&value{aval: a, t: t, v: v}}
}

// isAncestor reports whether o is t or encloses t.
func (t *trace) isAncestor(o *trace) bool {
	for p := t; p != nil; p = p.parent {
		if p == o {
			return true
		}
	}
	return false
}

// atom returns the operand that stands for v inside t: its variable, a
// literal for a concrete scalar, or a captured constant.
func (t *trace) atom(v *value) ir.Atom {
	switch {
	case v.t == t:
		return v.v
	case v.buf != nil && len(v.aval.Shape) == 0:
		return ir.Literal{Value: v.buf.At(0), Aval: v.aval}
	case v.t != nil && (v.t.done || !t.isAncestor(v.t)):
		throw(LeakedTracer, "a traced value of %s (%s) escaped the trace of %s and was used outside it; "+
			"return values from traced functions instead of storing them in variables", v.t.fnName, v.aval, v.t.fnName)
	}
	if cv, ok := t.captured[v]; ok {
		return cv
	}
	cv := ir.NewVar(v.aval)
	t.captured[v] = cv
	t.constvars = append(t.constvars, cv)
	t.constSrc = append(t.constSrc, v)
	return cv
}

// jaxpr closes the trace with the given outputs.
func (t *trace) jaxpr(outs []Array) *ir.Jaxpr {
	outvars := make([]ir.Atom, len(outs))
	for i, o := range outs {
		outvars[i] = t.atom(o.val())
	}
	return &ir.Jaxpr{Constvars: t.constvars, Invars: t.invars, Eqns: t.eqns, Outvars: outvars}
}

// bind applies a primitive: staged into the current trace when there is one,
// evaluated at once on concrete data otherwise. outs are the result types.
func bind(prim string, params ir.Params, outs []ir.Aval, args ...Array) []Array {
	t := traceOf(args)
	if t == nil {
		return evalEager(prim, params, outs, args)
	}
	in := make([]ir.Atom, len(args))
	for i, a := range args {
		in[i] = t.atom(a.val())
	}
	eqn := &ir.Eqn{Prim: prim, Params: params, In: in, Out: make([]*ir.Var, len(outs)), Source: stagingSite()}
	res := make([]Array, len(outs))
	for i, o := range outs {
		v := ir.NewVar(o)
		eqn.Out[i] = v
		res[i] = Array{&value{aval: o, t: t, v: v}}
	}
	t.eqns = append(t.eqns, eqn)
	return res
}

// evalEager runs one primitive on concrete arrays.
func evalEager(prim string, params ir.Params, outs []ir.Aval, args []Array) []Array {
	bufs := make([]*ir.Buffer, len(args))
	for i, a := range args {
		v := a.val()
		if v.t != nil {
			throw(LeakedTracer, "a traced value of %s (%s) was used after its trace ended; "+
				"return values from traced functions instead of storing them in variables", v.t.fnName, v.aval)
		}
		bufs[i] = v.buf
	}
	res, err := eval.Apply(prim, params, bufs)
	if err != nil {
		throw(BackendFailure, "%v", err)
	}
	out := make([]Array, len(res))
	for i, b := range res {
		a := b.Aval()
		if i < len(outs) {
			a.Weak = outs[i].Weak
		}
		out[i] = Array{&value{aval: a, buf: b}}
	}
	return out
}
