// Package cpu is the CPU backend of the jit package: it plans a jaxpr into
// fusion groups (jit/ir/fusion), compiles each elementwise chain or
// reduction into one kernel made of closures over typed block slices, and
// runs the kernels block by block (blocks sized for the L1/L2 caches), over
// GOMAXPROCS goroutines for large arrays and on the calling goroutine for
// small ones. Float matrix products (dot_general, with their fused
// elementwise consumers) run as packed, cache-blocked batched GEMM on
// register-blocked micro-kernels (gemm.go). Equations it does not fuse run
// through the reference evaluator (jit/ir/eval); control flow bodies are
// compiled once and run in a loop. float32 transcendentals, sqrt, rsqrt
// and pow run the kernels of f32math.go: float64 polynomial evaluations
// rounded once (within
// 0.5 + 2^-9 ulp), vectorized with AVX2+FMA on amd64 CPUs that have them
// (detected at run time) and in pure Go elsewhere or with the purego build
// tag, bit for bit the same. Importing the package registers the backend
// as "cpu".
package cpu

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/jitlint/jitlint/jit/backend"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// init registers the backend as "cpu".
func init() { backend.Register("cpu", open) }

// open returns the CPU backend; it cannot fail.
func open() (backend.Backend, error) { return Backend{}, nil }

// Backend lowers jaxprs to fused CPU kernels.
type Backend struct{}

// Name returns "cpu".
func (Backend) Name() string { return "cpu" }

// Devices returns the one host device.
func (Backend) Devices() []backend.Device {
	return []backend.Device{{Platform: "cpu", ID: 0, Name: fmt.Sprintf("cpu (%d threads)", runtime.GOMAXPROCS(0))}}
}

// Lower plans cj into fusion groups (recursively for nested jaxprs).
// Compile builds the kernels.
func (Backend) Lower(cj *ir.ClosedJaxpr) (l backend.Lowered, err error) {
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, fmt.Errorf("cpu: internal error while lowering (please report): %v", r)
		}
	}()
	if cj == nil || cj.Jaxpr == nil {
		return nil, fmt.Errorf("cpu: Lower got a nil jaxpr")
	}
	if len(cj.Consts) != len(cj.Jaxpr.Constvars) {
		return nil, fmt.Errorf("cpu: jaxpr has %d constvars but %d constant values", len(cj.Jaxpr.Constvars), len(cj.Consts))
	}
	cj = ir.Lowerable(cj) // explicit broadcasts, no stop_gradient
	pl, err := plan(cj.Jaxpr, cj.Consts)
	if err != nil {
		return nil, fmt.Errorf("cpu: %w", err)
	}
	return &Lowered{plan: pl, name: cj.Name}, nil
}

// Lowered is a planned program. Its kernels are built once, by the first
// of Compile and Text.
type Lowered struct {
	plan *planned
	name string
	once sync.Once
	prog *program
	err  error
}

// build builds the kernels once.
func (l *Lowered) build() (*program, error) {
	l.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				l.prog, l.err = nil, fmt.Errorf("cpu: internal error while compiling (please report): %v", r)
			}
		}()
		l.prog, l.err = compile(l.plan)
		if l.err != nil {
			l.err = fmt.Errorf("cpu: %w", l.err)
		}
	})
	return l.prog, l.err
}

// Text returns a readable kernel listing: each group with its kind (fused
// kernel, evaluated, control flow), iteration size, block size, how it is
// split over goroutines, its equations, inputs and outputs.
func (l *Lowered) Text() string {
	if _, err := l.build(); err != nil {
		return listing(l.plan, l.name) + "compile error: " + err.Error() + "\n"
	}
	return listing(l.plan, l.name)
}

// Compile builds the kernels (once per Lowered) and returns the executable,
// which may be called concurrently.
func (l *Lowered) Compile() (backend.Executable, error) {
	p, err := l.build()
	if err != nil {
		return nil, err
	}
	return &Executable{prog: p}, nil
}

// Executable runs a compiled program. It is safe for concurrent use.
type Executable struct {
	prog *program
}

// Execute runs the program on args (one per jaxpr invar) and returns freshly
// allocated results (one per outvar).
func (e *Executable) Execute(args []*ir.Buffer) ([]*ir.Buffer, error) {
	if err := checkArgs(e.prog.inAvals, args); err != nil {
		return nil, err
	}
	return e.prog.call(args)
}

// CompileDetail reports nothing for the CPU backend.
func (e *Executable) CompileDetail() backend.Detail { return backend.Detail{} }

// checkArgs validates call arguments against the jaxpr's input types.
func checkArgs(want []ir.Aval, args []*ir.Buffer) error {
	if len(args) != len(want) {
		return fmt.Errorf("cpu: executable takes %d arguments, got %d", len(want), len(args))
	}
	for i, a := range args {
		if a == nil {
			return fmt.Errorf("cpu: argument %d is nil", i)
		}
		if !a.Aval().TypeMatch(want[i]) {
			return fmt.Errorf("cpu: argument %d has type %s, the executable was compiled for %s (recompile for the new type)", i, a.Aval(), want[i])
		}
		if err := eval.CheckBuffer(a); err != nil {
			return fmt.Errorf("cpu: argument %d of type %s holds data of the wrong Go type or length: %v", i, a.Aval(), err)
		}
	}
	return nil
}
