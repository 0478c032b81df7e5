package jit

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jitlint/jitlint/jit/ir"
)

// Func is a jitted function. Call has the wrapped function's signature: on a
// cache miss it traces, lowers and compiles; otherwise it runs the cached
// executable. Misuse panics with *Error.
type Func[F any] struct {
	Call F
	core *funcCore
}

// Stats counts a jitted function's traces, compiles and cache hits, and
// times its phases (totals and the last of each).
type Stats struct {
	Traces, Compiles, Hits                        int
	TraceTime, LowerTime, CompileTime             time.Duration
	LastTraceTime, LastLowerTime, LastCompileTime time.Duration
	ExecuteTime, LastExecuteTime                  time.Duration
}

// funcCore is the untyped machinery behind Func, Jit and MakeJaxpr.
type funcCore struct {
	fn     reflect.Value
	typ    reflect.Type
	name   string
	static map[int]bool
	pinned string // Backend option, or "" for DefaultBackend()

	mu      sync.RWMutex
	entries map[string]*entry
	order   []*entry // in compile order, for Signatures and explanations
	nested  map[string]*nestedEntry
	stats   Stats
	// the hit path updates only atomics
	hits                atomic.Int64
	execTotal, execLast atomic.Int64 // nanoseconds

	srcOnce sync.Once
	defPos  string
	params  []string
}

// entry is one compiled signature.
type entry struct {
	done     chan struct{}
	sig      *signature
	compiled *Compiled
	err      any
}

// signature is a call's cache key in structured form (no array data).
type signature struct {
	tree    *treeDef
	paths   []string
	avals   []ir.Aval
	statics []staticVal
	backend string
}

// Jit wraps fn (a function whose parameters and results are Arrays, pytrees
// of Arrays, or static values) so that calls trace, compile and cache it per
// input signature.
func Jit[F any](fn F, opts ...Option) *Func[F] {
	c := newCore(reflect.ValueOf(fn), opts)
	f := &Func[F]{core: c}
	switch any(fn).(type) {
	case func(Array) Array:
		f.Call = any(func(x Array) Array { return c.callArrays([]Array{x}) }).(F)
	case func(Array, Array) Array:
		f.Call = any(func(x, y Array) Array { return c.callArrays([]Array{x, y}) }).(F)
	case func(Array, Array, Array) Array:
		f.Call = any(func(x, y, z Array) Array { return c.callArrays([]Array{x, y, z}) }).(F)
	default:
		f.Call = reflect.MakeFunc(c.typ, c.callReflect).Interface().(F)
	}
	return f
}

func newCore(fn reflect.Value, opts []Option) *funcCore {
	if !fn.IsValid() || fn.Kind() != reflect.Func || fn.IsNil() {
		throw(BadArgument, "jit.Jit needs a non-nil function, got %v", fn.Kind())
	}
	o := buildOptions(opts)
	typ := fn.Type()
	if typ.IsVariadic() {
		throw(BadArgument, "jit.Jit: variadic functions are not supported; take a slice of Arrays instead")
	}
	for i := range o.static {
		if i < 0 || i >= typ.NumIn() {
			throw(BadStaticArg, "StaticArgnums(%d) is out of range: the function has %d parameters", i, typ.NumIn())
		}
	}
	name := o.name
	if name == "" {
		name = funcName(fn)
	}
	c := &funcCore{fn: fn, typ: typ, name: name, static: o.static, pinned: o.backend,
		entries: map[string]*entry{}, nested: map[string]*nestedEntry{}}
	register(c)
	return c
}

// source returns where the function is defined and its parameter names.
func (c *funcCore) source() (string, []string) {
	c.srcOnce.Do(func() { c.defPos, c.params = funcSource(c.fn) })
	return c.defPos, c.params
}

// argName names parameter i for messages: its source name, or args[i].
func (c *funcCore) argName(i int) string {
	if _, p := c.source(); p != nil && p[i] != "" && p[i] != "_" {
		return p[i]
	}
	return fmt.Sprintf("args[%d]", i)
}

func (c *funcCore) backendName() string {
	if c.pinned != "" {
		return c.pinned
	}
	return DefaultBackend()
}

// flattenArgs flattens a call's arguments. Paths are computed only when
// withPaths is set (on a cache miss), keeping the hit path cheap.
// flattenFast flattens without paths; when the arguments are bad it
// flattens again with paths so that the error names the argument.
func (c *funcCore) flattenFast(args []reflect.Value) (f *flattener) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*Error); ok {
				c.flattenArgs(args, false, true)
			}
			panic(r)
		}
	}()
	f, _ = c.flattenArgs(args, false, false)
	return f
}

func (c *funcCore) flattenArgs(args []reflect.Value, abstractOK, withPaths bool) (*flattener, *treeDef) {
	if len(args) != c.typ.NumIn() {
		throw(BadArgCount, "%s takes %d arguments, got %d", c.name, c.typ.NumIn(), len(args))
	}
	f := &flattener{abstractOK: abstractOK}
	tree := &treeDef{kind: tupleNode}
	for i, a := range args {
		path := ""
		if withPaths {
			path = c.argName(i)
		}
		decl := c.typ.In(i)
		if c.static[i] {
			if a.IsValid() && a.Kind() == reflect.Interface {
				a = a.Elem()
			}
			if a.IsValid() {
				if _, isArr := a.Interface().(Array); isArr {
					throw(BadStaticArg, "argument %d (%s) is static (StaticArgnums) but got a jit.Array; "+
						"arrays cannot be static: pass a Go value, or remove %d from StaticArgnums", i, c.argName(i), i)
				}
			}
			tree.children = append(tree.children, f.addStatic(path, decl, a))
			continue
		}
		if a.IsValid() && a.Type() != decl && !a.Type().AssignableTo(decl) && !(decl == arrayType && isTraceable(a)) {
			throw(BadArgument, "argument %d (%s): cannot use %v as %v", i, c.argName(i), a.Type(), decl)
		}
		tree.children = append(tree.children, f.walk(decl, a, path))
	}
	return f, tree
}

// isTraceable reports whether an `any` argument can stand at an Array position.
func isTraceable(v reflect.Value) bool {
	switch v.Interface().(type) {
	case Array, ShapeDtype:
		return true
	}
	return goNumber(v.Interface())
}

func (f *flattener) signature(tree *treeDef, backend string) *signature {
	s := &signature{tree: tree, statics: f.statics, backend: backend}
	for _, l := range f.leaves {
		s.paths = append(s.paths, l.path)
		s.avals = append(s.avals, l.aval)
	}
	return s
}

// callReflect is Call for any function type.
func (c *funcCore) callReflect(args []reflect.Value) []reflect.Value {
	if currentTrace() != nil {
		return c.callNested(args)
	}
	bk := c.backendName()
	f := c.flattenFast(args)
	f.key = append(f.key, bk...)
	e := c.lookup(f.key, func() *signature {
		f2, tree2 := c.flattenArgs(args, false, true)
		return f2.signature(tree2, bk)
	})
	outs := e.compiled.run(f.leaves)
	return e.compiled.outTree.buildTuple(outs)
}

// callArrays is Call for functions of Arrays returning one Array, without
// reflection on the cache-hit path.
func (c *funcCore) callArrays(xs []Array) Array {
	var kb [160]byte
	var bb [3]*ir.Buffer
	key, bufs := kb[:0], bb[:0]
	for _, x := range xs {
		v := x.val()
		if v.t != nil {
			return c.callSlow(xs)
		}
		key = appendAval(append(key, 'L'), v.aval)
		bufs = append(bufs, v.buf)
	}
	if currentTrace() != nil {
		return c.callSlow(xs)
	}
	bk := c.backendName()
	key = append(key, bk...)
	e := c.lookup(key, func() *signature {
		f, tree := c.flattenArgs(reflectValues(xs), false, true)
		return f.signature(tree, bk)
	})
	return e.compiled.runBuffers(bufs)[0]
}

// callSlow is callArrays through the general path (inside a trace).
func (c *funcCore) callSlow(xs []Array) Array {
	return c.callReflect(reflectValues(xs))[0].Interface().(Array)
}

func reflectValues(xs []Array) []reflect.Value {
	vs := make([]reflect.Value, len(xs))
	for i, x := range xs {
		vs[i] = reflect.ValueOf(x)
	}
	return vs
}

// lookup returns the compiled entry for key, compiling it on a miss. Only
// one goroutine compiles a given key; others wait for it.
func (c *funcCore) lookup(key []byte, sig func() *signature) *entry {
	c.mu.RLock()
	e, ok := c.entries[string(key)]
	c.mu.RUnlock()
	if !ok {
		c.mu.Lock()
		if e, ok = c.entries[string(key)]; !ok {
			e = &entry{done: make(chan struct{})}
			c.entries[string(key)] = e
		}
		c.mu.Unlock()
		if !ok {
			c.compileEntry(string(key), e, sig())
		}
	}
	<-e.done
	if e.err != nil {
		panic(e.err)
	}
	if ok {
		c.hits.Add(1)
	}
	return e
}

// compileEntry traces, lowers and compiles a new signature, explaining the
// miss and logging the phases when asked to.
func (c *funcCore) compileEntry(key string, e *entry, sig *signature) {
	callPos := userPos()
	start := time.Now()
	defer close(e.done)
	defer func() {
		if r := recover(); r != nil {
			e.err = r
			c.mu.Lock()
			delete(c.entries, key)
			c.mu.Unlock()
		}
	}()
	c.mu.RLock()
	prev := make([]*signature, 0, len(c.order))
	for _, p := range c.order {
		prev = append(prev, p.sig)
	}
	c.mu.RUnlock()
	tr, err := c.trace("jit", sig)
	if err != nil {
		panic(err)
	}
	traced := time.Now()
	low, err := tr.Lower()
	if err != nil {
		panic(err)
	}
	lowered := time.Now()
	comp, err := low.Compile()
	if err != nil {
		panic(err)
	}
	compiled := time.Now()
	e.sig, e.compiled = sig, comp
	c.mu.Lock()
	c.order = append(c.order, e)
	c.mu.Unlock()
	if explainMisses.Load() && len(prev) > 0 {
		logf("%s", c.explainMiss(callPos, time.Since(start), sig, prev))
	}
	if eventsOut.Load() != nil {
		defPos, _ := c.source()
		ev := &Event{Event: "compile", Function: c.name, DefinedAt: defPos, CallSite: callPos, Signature: sig.String(),
			TraceMS: ms(traced.Sub(start)), LowerMS: ms(lowered.Sub(traced)), CompileMS: ms(compiled.Sub(lowered))}
		if len(prev) > 0 {
			ev.Event, ev.Changes = "cache_miss", closest(sig, prev).changes(sig)
			ev.Cause = strings.TrimRight(diffText(ev.Changes), "\n")
		}
		emitEvent(ev)
	}
}

// Stats returns the function's counters and phase timings.
func (f *Func[F]) Stats() Stats { return f.core.snapshot() }

func (c *funcCore) snapshot() Stats {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s := c.stats
	s.Hits = int(c.hits.Load())
	s.ExecuteTime = time.Duration(c.execTotal.Load())
	s.LastExecuteTime = time.Duration(c.execLast.Load())
	return s
}

// Signatures lists the input signatures compiled so far, in order, e.g.
// "(x: f32[4])" or "(n=3, x: f32[4]) on cpu".
func (f *Func[F]) Signatures() []string {
	c := f.core
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]string, len(c.order))
	for i, e := range c.order {
		out[i] = e.sig.String()
	}
	return out
}

// String renders a signature for humans.
func (s *signature) String() string {
	b := []byte("(")
	first := true
	sep := func() {
		if !first {
			b = append(b, ", "...)
		}
		first = false
	}
	for _, st := range s.statics {
		sep()
		b = fmt.Appendf(b, "%s=%#v", st.path, st.v)
	}
	for i, p := range s.paths {
		sep()
		b = fmt.Appendf(b, "%s: %s", p, s.avals[i].StringWeak())
	}
	return string(b) + ") on " + s.backend
}

// Trace traces the function for the given arguments (Arrays, ShapeDtypes, Go
// numbers, static values, pytrees) without compiling it.
func (f *Func[F]) Trace(args ...any) (*Traced, error) {
	return f.core.traceAny("jit", args)
}

// Lower traces and lowers the function for the given arguments.
func (f *Func[F]) Lower(args ...any) (*Lowered, error) {
	t, err := f.Trace(args...)
	if err != nil {
		return nil, err
	}
	return t.Lower()
}

func (c *funcCore) traceAny(kind string, args []any) (tr *Traced, err error) {
	defer recoverError(&err)
	vals := make([]reflect.Value, len(args))
	for i, a := range args {
		vals[i] = reflect.ValueOf(a)
	}
	fl, tree := c.flattenArgs(vals, true, true)
	return c.trace(kind, fl.signature(tree, c.backendName()))
}
