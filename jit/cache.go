package jit

import (
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/jitlint/jitlint/jit/events"
)

// entry is one compiled signature.
type entry struct {
	done     chan struct{}
	sig      *signature
	compiled *Compiled
	err      any
}

// fnCache is a compile cache: the executables compiled for a function's
// signatures and the jaxprs of its calls inside other traces. Every Jit
// wrapper of one top-level function or method expression with equal
// options shares one (see cacheFor); any other wrapper has its own.
type fnCache struct {
	mu      sync.RWMutex
	entries map[string]*entry
	order   []*entry // in compile order, for Signatures
	// begun are the signatures whose compiles have begun, in the order
	// they began, done or not: what a miss is explained against, so that
	// of concurrent first calls exactly one is the first compile.
	begun  []*signature
	nested map[string]*nestedEntry
}

func newFnCache() *fnCache {
	return &fnCache{entries: map[string]*entry{}, nested: map[string]*nestedEntry{}}
}

// clear drops every entry.
func (fc *fnCache) clear() {
	fc.mu.Lock()
	fc.entries = map[string]*entry{}
	fc.order, fc.begun = nil, nil
	fc.nested = map[string]*nestedEntry{}
	fc.mu.Unlock()
}

// lookup returns the compiled entry for key, compiling it on a miss. Only
// one goroutine compiles a given key; others wait for it. The wrapper that
// compiles counts the trace and compile, one that finds the entry a hit.
func (c *funcCore) lookup(key []byte, sig func() *signature) *entry {
	var site callSite
	if eventsOut.Load() != nil {
		site = countCall()
	}
	fc := c.cache
	fc.mu.RLock()
	e, ok := fc.entries[string(key)]
	fc.mu.RUnlock()
	if !ok {
		fc.mu.Lock()
		if e, ok = fc.entries[string(key)]; !ok {
			e = &entry{done: make(chan struct{})}
			fc.entries[string(key)] = e
		}
		fc.mu.Unlock()
		if !ok {
			c.compileEntry(string(key), e, sig(), site)
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

// compileEntry traces, lowers and compiles a new signature for the call at
// site (counted when events are on), explaining the miss and logging the
// phases when asked to.
func (c *funcCore) compileEntry(key string, e *entry, sig *signature, site callSite) {
	var callPos string
	if site.pos != nil {
		callPos = site.pos.String()
	} else {
		callPos = userPos()
	}
	start := time.Now()
	fc := c.cache
	defer close(e.done)
	defer func() {
		if r := recover(); r != nil {
			e.err = r
			fc.mu.Lock()
			delete(fc.entries, key)
			fc.begun = slices.DeleteFunc(fc.begun, func(s *signature) bool { return s == sig })
			fc.mu.Unlock()
		}
	}()
	fc.mu.Lock()
	prev := slices.Clone(fc.begun)
	fc.begun = append(fc.begun, sig)
	fc.mu.Unlock()
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
	fc.mu.Lock()
	fc.order = append(fc.order, e)
	fc.mu.Unlock()
	if explainMisses.Load() && len(prev) > 0 {
		logf("%s", c.explainMiss(callPos, time.Since(start), sig, prev))
	}
	if eventsOut.Load() != nil {
		defPos, _ := c.source()
		ev := &events.Event{Event: events.Compile, Function: c.name, DefinedAt: defPos, CallSite: callPos, Calls: site.calls,
			Signature: sig.String(), TraceMS: ms(traced.Sub(start)), LowerMS: ms(lowered.Sub(traced)), CompileMS: ms(compiled.Sub(lowered))}
		if len(prev) > 0 {
			ev.Event, ev.Changes = events.CacheMiss, closest(sig, prev).changes(sig)
			ev.Cause = strings.TrimRight(diffText(ev.Changes), "\n")
		}
		emitEvent(ev)
	}
}

// ClearCaches drops every jitted function's compiled executables, as
// jax.clear_caches: the next call of each traces and compiles again.
func ClearCaches() {
	registryMu.Lock()
	defer registryMu.Unlock()
	for wp := range allCaches {
		if fc := wp.Value(); fc != nil {
			fc.clear()
		}
	}
}

var (
	registryMu sync.Mutex
	allCaches  = map[weak.Pointer[fnCache]]struct{}{} // every live compile cache, for ClearCaches
	// shared holds the caches of top-level functions and method
	// expressions, by identity and options; they live as long as the
	// program, as the functions do.
	shared = map[sharedKey]*fnCache{}
)

// sharedKey identifies the cache of a function without captured state:
// its code pointer and type, and the options that change what it compiles
// or how it is named.
type sharedKey struct {
	pc      uintptr
	typ     reflect.Type
	name    string
	backend string
	static  string
}

// cacheFor returns the compile cache of a new wrapper of fn: the shared one
// of a top-level function or method expression with these options, or a
// new one of its own for a closure (a function literal, which may capture
// variables, even when it captures none, as a JAX lambda is a new function)
// or a method value (bound to its receiver).
func cacheFor(fn reflect.Value, o options) *fnCache {
	registryMu.Lock()
	defer registryMu.Unlock()
	if !hasIdentity(fn) {
		fc := newFnCache()
		registerCache(fc)
		return fc
	}
	static := slices.Sorted(maps.Keys(o.static))
	k := sharedKey{pc: fn.Pointer(), typ: fn.Type(), name: o.name, backend: o.backend, static: fmt.Sprint(static)}
	fc := shared[k]
	if fc == nil {
		fc = newFnCache()
		shared[k] = fc
		registerCache(fc)
	}
	return fc
}

// closureName matches the symbol of a function literal ("pkg.F.func1",
// "pkg.F.func1.2", "pkg.init.func3", "pkg.F[...].func1").
var closureName = regexp.MustCompile(`\.func\d+(\.\d+)*$`)

// hasIdentity reports whether fn is a top-level function or a method
// expression: a function with no captured state, named by its symbol.
// Function literals, method values ("-fm" wrappers bound to a receiver)
// and the functions Vmap, Grad and ValueAndGrad return have none.
func hasIdentity(fn reflect.Value) bool {
	if _, ok := transformedName(fn); ok {
		return false
	}
	f := runtime.FuncForPC(fn.Pointer())
	if f == nil {
		return false
	}
	name := f.Name()
	return !strings.HasSuffix(name, "-fm") && !closureName.MatchString(name)
}

// registerCache records fc for ClearCaches until it is garbage collected
// (registryMu held).
func registerCache(fc *fnCache) {
	wp := weak.Make(fc)
	allCaches[wp] = struct{}{}
	runtime.AddCleanup(fc, func(wp weak.Pointer[fnCache]) {
		registryMu.Lock()
		delete(allCaches, wp)
		registryMu.Unlock()
	}, wp)
}
