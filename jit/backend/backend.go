// Package backend is the seam between the IR and execution: the jit package
// traces a function into a jaxpr, asks a Backend to lower and compile it, and
// calls the resulting Executable. The CPU backend (package cpu) and the GPU
// backend (package gpu) implement it.
package backend

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/jitlint/jitlint/jit/ir"
)

// Device describes one device of a backend.
type Device struct {
	Platform string // "cpu" or "gpu"
	ID       int
	Name     string
}

// Backend lowers jaxprs for one platform.
type Backend interface {
	// Name is the platform name: "cpu" or "gpu".
	Name() string
	// Devices lists the platform's devices.
	Devices() []Device
	// Lower turns a closed jaxpr into a backend program (kernel listing, PTX).
	Lower(cj *ir.ClosedJaxpr) (Lowered, error)
}

// Lowered is a lowered, not yet compiled program.
type Lowered interface {
	// Text is the lowered program as text: a readable kernel listing on cpu,
	// PTX on gpu.
	Text() string
	// Compile compiles the program into an executable.
	Compile() (Executable, error)
}

// Executable runs a compiled program.
type Executable interface {
	// Execute runs the program. args match the jaxpr's invars (constants are
	// bound at compile time). Results match its outvars.
	Execute(args []*ir.Buffer) ([]*ir.Buffer, error)
	// CompileDetail reports backend-specific compile facts (e.g. the driver's
	// JIT wall time and log on gpu); may be zero.
	CompileDetail() Detail
}

// Detail holds backend-specific facts about a compile.
type Detail struct {
	// DriverJIT is the time the device driver spent compiling (gpu), if measured.
	DriverJIT time.Duration
	// Log is the compiler's info log, if any.
	Log string
}

var (
	mu       sync.Mutex
	registry = map[string]func() (Backend, error){}
)

// Register makes a backend available under name. open is called lazily (once
// per process, by the jit package) and may fail, e.g. when no GPU is present.
// A backend registers itself once, from its package's init function; as
// database/sql's Register does, Register panics if open is nil or if a
// backend is already registered under name.
func Register(name string, open func() (Backend, error)) {
	mu.Lock()
	defer mu.Unlock()
	if open == nil {
		panic(fmt.Sprintf("backend: Register of backend %q with a nil open function", name))
	}
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("backend: Register called twice for backend %q; "+
			"register from the backend package's init function only, once per name", name))
	}
	registry[name] = open
}

var (
	openMu sync.Mutex
	opened = map[string]openResult{}
)

type openResult struct {
	b   Backend
	err error
}

// Get returns the backend registered under name, opening it on first use.
// The result (backend or error) is remembered.
func Get(name string) (Backend, error) {
	openMu.Lock()
	defer openMu.Unlock()
	if r, ok := opened[name]; ok {
		return r.b, r.err
	}
	mu.Lock()
	open, ok := registry[name]
	mu.Unlock()
	var r openResult
	if !ok {
		r.err = fmt.Errorf("unknown backend %q (registered: %v)", name, Names())
	} else {
		r.b, r.err = open()
	}
	opened[name] = r
	return r.b, r.err
}

// Names lists the registered backend names, sorted.
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	var names []string
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
