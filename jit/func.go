package jit

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
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

	cache *fnCache
	// mu guards stats; the counters and times are the wrapper's own even
	// when its cache is shared.
	mu    sync.RWMutex
	stats Stats
	// the hit path updates only atomics
	hits                atomic.Int64
	execTotal, execLast atomic.Int64 // nanoseconds

	srcOnce sync.Once
	defPos  string
	params  []string
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
	return &funcCore{fn: fn, typ: typ, name: name, static: o.static, pinned: o.backend, cache: cacheFor(fn, o)}
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

// Stats returns the function's counters and phase timings.
func (f *Func[F]) Stats() Stats { return f.core.snapshot() }

// recordPhase adds a phase that took d to its total and last durations in
// the stats (fields of c.stats), counting it in n unless n is nil.
func (c *funcCore) recordPhase(d time.Duration, n *int, total, last *time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n != nil {
		*n++
	}
	*total += d
	*last = d
}

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
// "(x: f32[4])" or "(n=3, x: f32[4]) on cpu": those of the function's
// cache, which wrappers of one top-level function share.
func (f *Func[F]) Signatures() []string {
	fc := f.core.cache
	fc.mu.RLock()
	defer fc.mu.RUnlock()
	out := make([]string, len(fc.order))
	for i, e := range fc.order {
		out[i] = e.sig.String()
	}
	return out
}
