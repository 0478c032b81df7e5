package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMulAddLoopF32 checks the float32 multiply-add loops (the AVX2 kernels
// where the CPU has them) against mulAddLoop's Go loop bit for bit, for
// every kind, scalar and vector c, lengths around the vector width, and in
// place (d is a).
func TestMulAddLoopF32(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range []mulAddKind{mulAdd, mulSub, subMul} {
		for _, sc := range []bool{false, true} {
			f, ref := mulAddLoopF32(k, sc), mulAddLoop[float32](k, sc)
			for _, n := range []int{0, 1, 7, 8, 9, 31, 2048, 2053} {
				a, b, c := make([]float32, n), make([]float32, n), make([]float32, max(n, 1))
				for i := range a {
					a[i], b[i] = float32(r.NormFloat64()*1e3), float32(r.NormFloat64())
				}
				for i := range c {
					c[i] = float32(r.NormFloat64() * 1e3)
				}
				want := make([]float32, n)
				ref(want, a, b, c)
				f(a, a, b, c)
				for i := range want {
					if math.Float32bits(a[i]) != math.Float32bits(want[i]) {
						t.Fatalf("kind %d scalar %v n=%d element %d: %g, want %g", k, sc, n, i, a[i], want[i])
					}
				}
			}
		}
	}
	t.Logf("vector kernels: %v", mulAddF32Vec != nil)
}
