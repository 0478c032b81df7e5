package jit

import (
	"runtime"
	"sync"
	"weak"
)

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
