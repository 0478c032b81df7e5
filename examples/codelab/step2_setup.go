package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/jitlint/jitlint/jit"
	_ "github.com/jitlint/jitlint/jit/gpu" // links the GPU backend: jit uses it when a CUDA device works
)

// step2 prints the module version, the default backend and the devices. The
// codelab asserts a GPU; here the CPU backend is the fallback, and the reason
// is printed.
func step2() {
	version := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		version = bi.Main.Path + " " + bi.Main.Version
	}
	fmt.Println("jitlint version:", version, "with", runtime.Version())
	fmt.Println("default backend:", jit.DefaultBackend())
	fmt.Println("devices:", jit.Devices())
	if jit.DefaultBackend() != "gpu" {
		fmt.Printf("no GPU: %v\nfalling back to the CPU backend (compile costs below are the CPU backend's)\n", jit.BackendError("gpu"))
	}
}
