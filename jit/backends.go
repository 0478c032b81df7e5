package jit

// The backends register themselves; DefaultBackend picks gpu when the CUDA
// driver and a device work, cpu otherwise.
import (
	_ "github.com/jitlint/jitlint/jit/gpu"     // registers the "gpu" backend (fails cleanly without a GPU)
	_ "github.com/jitlint/jitlint/jit/cpu" // registers the "cpu" backend
)
