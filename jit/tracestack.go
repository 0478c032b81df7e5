package jit

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit/ir"
)

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
