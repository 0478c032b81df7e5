//go:build !purego

package cpu

import "golang.org/x/sys/cpu"

//go:generate go run ./internal/asmgen -kernels gemm -o gemm_amd64.s

// The assembly micro-kernels (gemm_amd64.s): the contract of microKernel,
// with pointers to the first elements of the panels and the tile, kc > 0
// and ldc in elements.

//go:noescape
func gemmF32AVX2(kc int, a, b, c *float32, ldc int, accum bool)

//go:noescape
func gemmF64AVX2(kc int, a, b, c *float64, ldc int, accum bool)

//go:noescape
func gemmF32AVX512(kc int, a, b, c *float32, ldc int, accum bool)

//go:noescape
func gemmF64AVX512(kc int, a, b, c *float64, ldc int, accum bool)

// fmaLoopAVX2 and fmaLoopAVX512 run n iterations of 12 (YMM) or 16 (ZMM)
// independent float32 FMAs: the FMA throughput of a core, which
// BenchmarkMicroKernel measures the kernels against.
//
//go:noescape
func fmaLoopAVX2(n int)

//go:noescape
func fmaLoopAVX512(n int)

// The assembly kernels as microKernels.
var (
	avx2KernelF32   = asmKernel("avx2 6x16", 6, 16, 256, gemmF32AVX2)
	avx2KernelF64   = asmKernel("avx2 6x8", 6, 8, 256, gemmF64AVX2)
	avx512KernelF32 = asmKernel("avx512 12x32", 12, 32, 512, gemmF32AVX512)
	avx512KernelF64 = asmKernel("avx512 12x16", 12, 16, 512, gemmF64AVX512)
)

// asmKernel wraps an assembly kernel of vectors bits wide, checking the
// slices' lengths (the assembly trusts them).
func asmKernel[T float32 | float64](name string, mr, nr, bits int, f func(kc int, a, b, c *T, ldc int, accum bool)) microKernel[T] {
	return microKernel[T]{name: name, mr: mr, nr: nr, vecBits: bits, run: func(kc int, a, b, c []T, ldc int, accum bool) {
		if kc <= 0 || len(a) < kc*mr || len(b) < kc*nr || ldc < nr || len(c) < (mr-1)*ldc+nr {
			panic("cpu: micro-kernel called with short panels or tile")
		}
		f(kc, &a[0], &b[0], &c[0], ldc, accum)
	}}
}

// cpuFeatures are the CPU features the kernel choice depends on.
type cpuFeatures struct{ avx2FMA, avx512 bool }

// chooseKernels returns the widest micro-kernels the features allow:
// AVX-512F, else AVX2 with FMA, else the Go ones.
func chooseKernels(f cpuFeatures) (microKernel[float32], microKernel[float64]) {
	switch {
	case f.avx512:
		return avx512KernelF32, avx512KernelF64
	case f.avx2FMA:
		return avx2KernelF32, avx2KernelF64
	}
	return goKernelF32, goKernelF64
}

// hostFeatures are this CPU's (with the operating system's support for
// the registers, as x/sys/cpu reports them).
var hostFeatures = cpuFeatures{avx2FMA: cpu.X86.HasAVX2 && cpu.X86.HasFMA, avx512: cpu.X86.HasAVX512F}

func init() { kernelF32, kernelF64 = chooseKernels(hostFeatures) }
