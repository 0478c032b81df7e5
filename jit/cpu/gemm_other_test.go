//go:build purego || !amd64

package cpu

// hostKernelSets are the assembly micro-kernels this build runs: none
// (the Go ones are tested and measured on their own).
func hostKernelSets() []kernelSet { return nil }

// fmaLoop: no FMA throughput loop without the assembly.
func fmaLoop(bits int) (func(n int), int) { return nil, 0 }
