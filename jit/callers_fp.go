//go:build amd64 || arm64

package jit

// fpCallers fills pcs with the return PCs found by following the frame
// pointer chain from its caller's frame outwards (its caller's own return
// PC first) and returns how many it stored. It costs a few nanoseconds a
// frame where runtime.Callers costs a couple of hundred, but it skips the
// functions that have no stack frame (the compiler omits the frame of a
// function that keeps nothing live across its calls): the PCs identify a
// call chain, they do not list it.
//
//go:noescape
func fpCallers(pcs []uintptr) int
