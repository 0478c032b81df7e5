package a

import (
	"sync"

	"github.com/jitlint/jitlint/jit"
)

// A critical section that a traced function opens and closes leaves the
// mutex as it found it: the write it guards is the effect, and only it is
// reported. A mutex released for a caller that locked it, or a WaitGroup
// signalled, is seen by other goroutines once per trace.

var (
	seenMu sync.Mutex
	seen   = map[string]int{}
	shared struct {
		mu    sync.RWMutex
		steps int
	}
	pending sync.WaitGroup
)

// GuardedWrite counts its traces, under a lock.
func GuardedWrite(x jit.Array) jit.Array {
	seenMu.Lock()
	seen["GuardedWrite"]++ // want `assignment to package variable seen runs once per trace`
	seenMu.Unlock()
	return x.Sin()
}

var guardedWrite = jit.Jit(GuardedWrite)

// DeferredUnlock counts its traces under a lock released by defer.
func DeferredUnlock(x jit.Array) jit.Array {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	shared.steps++ // want `assignment to package variable shared runs once per trace`
	return x.Cos()
}

var deferredUnlock = jit.Jit(DeferredUnlock)

// ReadLocked reads under a read lock: nothing is written.
func ReadLocked(x jit.Array) jit.Array {
	shared.mu.RLock()
	n := shared.steps
	shared.mu.RUnlock()
	return x.Mul(float64(n))
}

var readLocked = jit.Jit(ReadLocked)

// ReleaseForCaller unlocks a mutex that its caller locked, and signals a
// WaitGroup: both are seen by other goroutines, once per trace.
func ReleaseForCaller(x jit.Array) jit.Array {
	seenMu.Unlock() // want `seenMu.Unlock locks or signals shared state once per trace`
	pending.Done()  // want `pending.Done locks or signals shared state once per trace`
	return x.Tanh()
}

var releaseForCaller = jit.Jit(ReleaseForCaller)
