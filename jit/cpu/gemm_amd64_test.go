//go:build !purego

package cpu

import "testing"

// TestAsmMicroKernelsMatchGo runs the assembly micro-kernels this CPU has
// against the plain contract, bit for bit.
func TestAsmMicroKernelsMatchGo(t *testing.T) {
	if !hostFeatures.avx2FMA {
		t.Skip("no AVX2+FMA on this CPU")
	}
	checkMicroKernel(t, avx2KernelF32)
	checkMicroKernel(t, avx2KernelF64)
	if !hostFeatures.avx512 {
		t.Skip("no AVX-512F on this CPU: its kernels are assembled (and chosen by TestKernelChoice) but not run")
	}
	checkMicroKernel(t, avx512KernelF32)
	checkMicroKernel(t, avx512KernelF64)
}

func TestKernelChoice(t *testing.T) {
	for _, c := range []struct {
		f        cpuFeatures
		f32, f64 string
	}{
		{cpuFeatures{}, goKernelF32.name, goKernelF64.name},
		{cpuFeatures{avx2FMA: true}, avx2KernelF32.name, avx2KernelF64.name},
		{cpuFeatures{avx2FMA: true, avx512: true}, avx512KernelF32.name, avx512KernelF64.name},
	} {
		k32, k64 := chooseKernels(c.f)
		if k32.name != c.f32 || k64.name != c.f64 {
			t.Errorf("features %+v: kernels %s and %s, want %s and %s", c.f, k32.name, k64.name, c.f32, c.f64)
		}
	}
	want32, _ := chooseKernels(hostFeatures)
	if kernelF32.name != want32.name {
		t.Errorf("this CPU (%+v) uses %s, want %s", hostFeatures, kernelF32.name, want32.name)
	}
}

// hostKernelSets are the micro-kernels this CPU runs, each set (f32, f64)
// once: the chosen ones and, below them, the AVX2 ones where the chosen
// are AVX-512 (so that the AVX2 path is tested and measured on AVX-512
// machines too).
func hostKernelSets() []kernelSet {
	k32, k64 := chooseKernels(hostFeatures)
	sets := []kernelSet{{"chosen", k32, k64}}
	if hostFeatures.avx2FMA && k32.name != avx2KernelF32.name {
		sets = append(sets, kernelSet{"avx2", avx2KernelF32, avx2KernelF64})
	}
	return sets
}

// fmaLoop returns the FMA throughput loop of vectors bits wide (nil for
// none) and the independent FMAs it runs per iteration.
func fmaLoop(bits int) (func(n int), int) {
	switch bits {
	case 256:
		return fmaLoopAVX2, 12
	case 512:
		return fmaLoopAVX512, 16
	}
	return nil, 0
}
