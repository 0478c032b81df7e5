package jit

import (
	"errors"
	"os"
	"slices"
	"sync"

	"github.com/jitlint/jitlint/jit/backend"
	_ "github.com/jitlint/jitlint/jit/cpu" // registers the "cpu" backend
)

// The CPU backend is always linked. Other backends are drivers that a
// program links by importing them, as database/sql drivers are: the GPU
// backend registers itself as "gpu" when a package of the program does
//
//	import _ "github.com/jitlint/jitlint/jit/gpu"
//
// DefaultBackend then picks gpu when the CUDA driver and a device work.

// gpuImport is the import that links the GPU backend into a program.
const gpuImport = `import _ "github.com/jitlint/jitlint/jit/gpu"`

// errGPUNotLinked is the reason "gpu" is unavailable in a program that
// does not import the GPU backend.
var errGPUNotLinked = errors.New("the gpu backend is not linked into this program: add " + gpuImport + " to a file of your program (e.g. its main package)")

// getBackend opens the backend registered as name; asking for "gpu" in a
// program that does not import it says which import to add.
func getBackend(name string) (backend.Backend, error) {
	if name == "gpu" && !slices.Contains(backend.Names(), "gpu") {
		return nil, errGPUNotLinked
	}
	return backend.Get(name)
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
