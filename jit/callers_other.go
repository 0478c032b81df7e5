//go:build !amd64 && !arm64

package jit

import "runtime"

// fpCallers fills pcs with the return PCs of its caller's callers and
// returns how many it stored. Off amd64 and arm64 it uses runtime.Callers, which
// unwinds with the frame tables (about 200 ns a frame).
//
//go:noinline
func fpCallers(pcs []uintptr) int {
	return runtime.Callers(3, pcs) // skip Callers, fpCallers and its caller's own frame
}
