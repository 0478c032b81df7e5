package jit

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/jitlint/jitlint/jit/backend"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
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

// Device is one device of a backend.
type Device = backend.Device

var (
	defaultOnce sync.Once
	defaultName string
)

// DefaultBackend returns "gpu" when the program links the GPU backend
// (gpuImport) and a CUDA device works, and "cpu" otherwise;
// the environment variable JIT_PLATFORM=cpu|gpu forces one (read once).
func DefaultBackend() string {
	defaultOnce.Do(func() {
		switch p := os.Getenv("JIT_PLATFORM"); p {
		case "cpu", "gpu":
			defaultName = p
		default:
			defaultName = "cpu"
			if _, err := getBackend("gpu"); err == nil {
				defaultName = "gpu"
			}
		}
	})
	return defaultName
}

// Devices lists the devices of every working backend, default backend first.
func Devices() []Device {
	var out []Device
	names := []string{DefaultBackend()}
	for _, n := range backend.Names() {
		if n != names[0] {
			names = append(names, n)
		}
	}
	for _, n := range names {
		if b, err := getBackend(n); err == nil {
			out = append(out, b.Devices()...)
		}
	}
	return out
}

// BackendError returns why a backend is unavailable (nil if it works);
// for "gpu" in a program that does not import the GPU backend, the error
// names the import to add (gpuImport).
func BackendError(name string) error {
	_, err := getBackend(name)
	return err
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

// DebugPrint prints at run time: inside traced code it stages a debug_print
// equation that prints every time the compiled program runs, with the
// values; outside traced code it prints at once. format is a Go fmt format;
// args are Arrays (printed numpy-style) or Go numbers.
func DebugPrint(format string, args ...any) {
	arrs := make([]Array, len(args))
	for i, a := range args {
		arrs[i] = asArray(a)
	}
	if currentTrace() == nil {
		vals := make([]any, len(arrs))
		for i, a := range arrs {
			vals[i] = a
		}
		s := fmt.Sprintf(format, vals...)
		if len(s) == 0 || s[len(s)-1] != '\n' {
			s += "\n"
		}
		io.WriteString(eval.Stdout, s)
		return
	}
	bind(ir.DebugPrint, ir.Params{"fmt": format, "ordered": false}, nil, arrs...)
}
