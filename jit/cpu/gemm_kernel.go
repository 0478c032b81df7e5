package cpu

import "math"

// A micro-kernel computes one mr×nr tile of C from a packed A panel (kc
// columns of mr values: a[p*mr+i] = A[i, p]) and a packed B panel (kc rows
// of nr values: b[p*nr+j] = B[p, j]). Each element accumulates its kc
// products in order with fused multiply-adds from zero, acc = fma(A[i,p],
// B[p,j], acc), then is stored (c[i*ldc+j] = acc) or, with accum, added
// (c[i*ldc+j] = acc + c[i*ldc+j]) in one rounding. The assembly kernels
// (gemm_amd64.s) and the Go kernels below perform exactly these operations,
// so every kernel gives the same bits.
type microKernel[T float32 | float64] struct {
	name   string
	mr, nr int
	// vecBits is the width of the kernel's vector FMAs (0: the Go
	// kernels' scalar ones).
	vecBits int
	run     func(kc int, a, b, c []T, ldc int, accum bool)
}

// goKernelF32 and goKernelF64 are the pure-Go micro-kernels, with the
// AVX2 kernels' tile shapes: the kernels on CPUs without AVX2+FMA, on other
// architectures and with the purego build tag.
var (
	goKernelF32 = microKernel[float32]{name: "go 6x16", mr: 6, nr: 16, run: goMicro[float32](16)}
	goKernelF64 = microKernel[float64]{name: "go 6x8", mr: 6, nr: 8, run: goMicro[float64](8)}
)

// goMicro returns the Go micro-kernel of a 6×nr tile (nr ≤ 16).
func goMicro[T float32 | float64](nr int) func(kc int, a, b, c []T, ldc int, accum bool) {
	const mr = 6
	return func(kc int, a, b, c []T, ldc int, accum bool) {
		var tile [mr * 16]T
		acc := tile[:mr*nr]
		a, b = a[:kc*mr], b[:kc*nr]
		for p := 0; p < kc; p++ {
			ap, bp := a[p*mr:p*mr+mr], b[p*nr:p*nr+nr]
			for i, ai := range ap {
				row := acc[i*nr : i*nr+nr]
				for j, bj := range bp {
					row[j] = fma(ai, bj, row[j])
				}
			}
		}
		storeTile(acc, nr, c, ldc, accum)
	}
}

// fma returns a*b + c rounded once to T.
func fma[T float32 | float64](a, b, c T) T {
	if _, ok := any(a).(float32); ok {
		return T(fma32(float32(a), float32(b), float32(c)))
	}
	return T(math.FMA(float64(a), float64(b), float64(c)))
}

// storeTile stores (or, with accum, adds) a tile's accumulators, rows of
// nr, into c.
func storeTile[T float32 | float64](acc []T, nr int, c []T, ldc int, accum bool) {
	for i := 0; i < len(acc)/nr; i++ {
		row := acc[i*nr : i*nr+nr]
		ci := c[i*ldc : i*ldc+nr]
		if accum {
			for j, v := range row {
				ci[j] = v + ci[j]
			}
		} else {
			copy(ci, row)
		}
	}
}

// fma32 returns a*b + c rounded once to float32, as the FMA instruction
// does. The product is exact in float64; the float64 sum s and its error
// e (TwoSum) hold a*b + c exactly, and rounding s to float32 rounds the
// exact value too except when s lies exactly halfway between two float32
// values and e is not zero, where the exact value is on e's side.
func fma32(a, b, c float32) float32 {
	p, cd := float64(a)*float64(b), float64(c)
	s := p + cd
	r := float32(s)
	if float64(r) == s {
		return r
	}
	bv := s - p
	e := (p - (s - bv)) + (cd - bv)
	if e == 0 {
		return r
	}
	// The other float32 neighbour of s.
	o := math.Nextafter32(r, float32(math.Copysign(math.Inf(1), s-float64(r))))
	if (float64(r)+float64(o))/2 != s {
		return r
	}
	if (e > 0) == (float64(o) > float64(r)) {
		return o
	}
	return r
}

// kernelF32 and kernelF64 are the micro-kernels the products use: the Go
// ones, replaced at init by the assembly ones the CPU supports.
var (
	kernelF32 = goKernelF32
	kernelF64 = goKernelF64
)
