package jit

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

var (
	logCompiles   atomic.Bool
	explainMisses atomic.Bool
	logMu         sync.Mutex
	logOut        io.Writer = os.Stderr
)

func init() {
	logCompiles.Store(os.Getenv("JIT_LOG_COMPILES") == "1")
	explainMisses.Store(os.Getenv("JIT_EXPLAIN_CACHE_MISSES") == "1")
}

// SetLogCompiles turns on logging of each trace, lowering and compile with
// its duration (also on with env JIT_LOG_COMPILES=1).
func SetLogCompiles(on bool) { logCompiles.Store(on) }

// SetExplainCacheMisses turns on explanations of cache misses of functions
// that were already compiled: which argument changed, from what to what, and
// where the call came from (also on with env JIT_EXPLAIN_CACHE_MISSES=1).
func SetExplainCacheMisses(on bool) { explainMisses.Store(on) }

// SetLogOutput sets where compile logs and cache-miss explanations go;
// nil restores the default, os.Stderr. (DebugPrint writes to standard output.)
func SetLogOutput(w io.Writer) {
	logMu.Lock()
	defer logMu.Unlock()
	if w == nil {
		w = os.Stderr
	}
	logOut = w
}

func logf(format string, args ...any) {
	logMu.Lock()
	defer logMu.Unlock()
	fmt.Fprintf(logOut, format+"\n", args...)
}
