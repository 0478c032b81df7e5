package jit

import (
	"sync"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit/ir"
)

// chainDepth is how many return PCs identify the call chain that reaches
// bind: enough to pass the jit functions between a user's call and bind (a
// composite op such as Mean calling Sum calling reduce) and reach the user's
// frames, small so that hashing the key stays cheap.
const chainDepth = 8

// chainKey is a call chain as fpCallers sees it.
type chainKey [chainDepth]uintptr

// siteMap maps a call chain to the user's position it resolves to (nil when
// the chain stays inside jit within the frames userFrame looks at). Chains
// are few (one per call site and path to it), so the map grows with the
// program's code, not with the number of traces. Readers load it without
// locking; a new chain copies it under siteMu.
var (
	siteMap atomic.Pointer[map[chainKey]*ir.Pos]
	siteMu  sync.Mutex
)

func init() { siteMap.Store(&map[chainKey]*ir.Pos{}) }

// userSite returns the position of the user's call that is being made:
// the first frame outside jit, its subpackages, the runtime and reflect.
// bind calls it for the equation it stages, and lookup (while events are
// on) for the call of a jitted function. The call chain is identified by
// walking frame pointers (cheap) and resolved with the full unwinder
// (userFrame) only the first time it is seen.
//
// Two calls at different lines of one frameless function with the same chain
// above them would share a key; a function keeps no frame only when nothing
// is live across its calls, so it can make at most one such call with its
// own arguments and this does not arise in practice.
//
//go:noinline
func userSite() *ir.Pos {
	var key chainKey
	fpCallers(key[:])
	if pos, ok := (*siteMap.Load())[key]; ok {
		return pos
	}
	var pos *ir.Pos
	if f, ok := userFrame(); ok {
		pos = &ir.Pos{File: f.File, Line: f.Line}
	}
	siteMu.Lock()
	defer siteMu.Unlock()
	old := *siteMap.Load()
	m := make(map[chainKey]*ir.Pos, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	m[key] = pos
	siteMap.Store(&m)
	return pos
}
