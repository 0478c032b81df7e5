package jit

import (
	"errors"
	"slices"

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
