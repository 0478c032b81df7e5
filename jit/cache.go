package jit

import (
	"runtime"
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

// lookup returns the compiled entry for key, compiling it on a miss. Only
// one goroutine compiles a given key; others wait for it.
func (c *funcCore) lookup(key []byte, sig func() *signature) *entry {
	var site callSite
	if eventsOut.Load() != nil {
		site = countCall()
	}
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
	for wp := range allCores {
		c := wp.Value()
		if c == nil {
			continue
		}
		c.mu.Lock()
		c.entries = map[string]*entry{}
		c.order = nil
		c.nested = map[string]*nestedEntry{}
		c.mu.Unlock()
	}
}

var (
	registryMu sync.Mutex
	allCores   = map[weak.Pointer[funcCore]]struct{}{} // every live jitted function, for ClearCaches
)

// register records c for ClearCaches until it is garbage collected.
func register(c *funcCore) {
	wp := weak.Make(c)
	registryMu.Lock()
	allCores[wp] = struct{}{}
	registryMu.Unlock()
	runtime.AddCleanup(c, func(wp weak.Pointer[funcCore]) {
		registryMu.Lock()
		delete(allCores, wp)
		registryMu.Unlock()
	}, wp)
}
