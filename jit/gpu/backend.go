package gpu

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jitlint/jitlint/jit/backend"
	"github.com/jitlint/jitlint/jit/gpu/internal/devapi"
	"github.com/jitlint/jitlint/jit/ir"
)

func init() {
	backend.Register("gpu", Open)
	devapi.NewBackend = func(d devapi.Device) backend.Backend { return newBackend(d) }
}

// LibraryEnv names the environment variable that overrides the path of the
// CUDA driver library (default libcuda.so.1, found by the dynamic loader).
const LibraryEnv = "JITLINT_LIBCUDA"

// defaultLibrary is the driver's soname.
const defaultLibrary = "libcuda.so.1"

var (
	openOnce sync.Once
	opened   *Backend
	openErr  error
)

// Open opens the GPU backend on device 0 (once per process). It fails, with
// the reason, when the driver library cannot be loaded or no device works.
func Open() (backend.Backend, error) {
	openOnce.Do(func() {
		path := os.Getenv(LibraryEnv)
		if path == "" {
			path = defaultLibrary
		}
		opened, openErr = openWith(path)
	})
	if openErr != nil {
		return nil, openErr
	}
	return opened, nil
}

// Available reports whether the GPU backend works here and, if not, why.
func Available() (bool, string) {
	if _, err := Open(); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// openWith opens the backend with the driver library at path.
func openWith(path string) (*Backend, error) {
	dev, err := openCUDA(path)
	if err != nil {
		return nil, fmt.Errorf("gpu backend unavailable: %w (set %s to the driver's path, or use the cpu backend)", err, LibraryEnv)
	}
	return newBackend(dev), nil
}

// Backend is the GPU backend (device 0).
type Backend struct {
	dev device
}

func newBackend(dev device) *Backend { return &Backend{dev: dev} }

// Name returns "gpu".
func (b *Backend) Name() string { return "gpu" }

// Devices lists the device in use.
func (b *Backend) Devices() []backend.Device {
	return []backend.Device{{Platform: "gpu", ID: 0, Name: b.dev.Info().Name}}
}

// Describe is a one-line description: name, compute capability, memory, SMs.
func (b *Backend) Describe() string {
	i := b.dev.Info()
	return fmt.Sprintf("%s (sm_%d%d, %.1f GiB, %d SMs)", i.Name, i.Major, i.Minor, float64(i.TotalMem)/(1<<30), i.SMs)
}

// Lower plans the jaxpr and generates its PTX for this device.
func (b *Backend) Lower(cj *ir.ClosedJaxpr) (backend.Lowered, error) {
	start := time.Now()
	i := b.dev.Info()
	ptx, prog, err := lowerPTX(cj, i.Major, i.Minor)
	if err != nil {
		return nil, err
	}
	return &Lowered{dev: b.dev, ptx: ptx, prog: prog, LowerTime: time.Since(start)}, nil
}

// lowerPTX plans cj and returns the module text for compute capability
// major.minor and the program that drives it.
func lowerPTX(cj *ir.ClosedJaxpr, major, minor int) (ptx string, prog *program, err error) {
	defer func() { // a malformed jaxpr must not crash the caller
		if r := recover(); r != nil {
			err = fmt.Errorf("gpu: internal error lowering %s (malformed jaxpr?): %v", nameOr(cj.Name), r)
		}
	}()
	l := &lowerer{}
	prog, err = l.lower(ir.Lowerable(cj)) // explicit broadcasts, no stop_gradient
	if err != nil {
		return "", nil, fmt.Errorf("gpu: lowering %s: %w", nameOr(cj.Name), err)
	}
	var body strings.Builder
	for _, k := range l.kernels {
		body.WriteString(k.text())
		body.WriteString("\n")
	}
	return moduleHeader(major, minor, body.String()) + body.String(), prog, nil
}

func nameOr(s string) string {
	if s == "" {
		return "<jaxpr>"
	}
	return s
}

// Lowered is a jaxpr lowered to PTX, not yet loaded by the driver.
type Lowered struct {
	dev  device
	ptx  string
	prog *program
	// LowerTime is the time spent planning and generating PTX.
	LowerTime time.Duration
}

// Text returns the PTX module.
func (l *Lowered) Text() string { return l.ptx }

// Compile loads the PTX with the driver's JIT (its wall time is in the
// executable's CompileDetail) and allocates the program's buffers.
func (l *Lowered) Compile() (backend.Executable, error) {
	x, err := compile(l.dev, l.ptx, l.prog)
	if err != nil {
		return nil, err
	}
	return x, nil
}
