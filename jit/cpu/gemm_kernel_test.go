package cpu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactFMA32 rounds a*b + c, computed exactly, to float32.
func exactFMA32(a, b, c float32) float32 {
	x := new(big.Float).SetPrec(0).SetMode(big.ToNearestEven)
	x.SetPrec(200)
	x.Mul(big.NewFloat(float64(a)).SetPrec(200), big.NewFloat(float64(b)).SetPrec(200))
	x.Add(x, big.NewFloat(float64(c)).SetPrec(200))
	f, _ := x.Float32()
	return f
}

func TestFMA32IsCorrectlyRounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	one := float32(1)
	cases := [][3]float32{
		// a*b exactly halfway between two float32 values, c tiny: the
		// double rounding through float64 would round to even.
		{1 + 0x1p-12, 1 + 0x1p-12, 0x1p-60},
		{1 + 0x1p-12, 1 + 0x1p-12, -0x1p-60},
		{one, 1 + 0x1p-23, 0x1p-24 + 0x1p-70},
		{3, 1.0 / 3, -1},
		{0x1p-149, 0.5, 0},
		{0x1p-149, 0.5, 0x1p-160},
	}
	for range 200000 {
		a, b := float32(r.NormFloat64()), float32(r.NormFloat64())
		c := -a * b * float32(1+r.NormFloat64()*0x1p-20)
		if r.IntN(2) == 0 {
			c = float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(60)-30)))
		}
		cases = append(cases, [3]float32{a, b, c})
	}
	for _, c := range cases {
		got, want := fma32(c[0], c[1], c[2]), exactFMA32(c[0], c[1], c[2])
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("fma32(%g, %g, %g) = %g, want %g", c[0], c[1], c[2], got, want)
		}
	}
}

// refMicro is the micro-kernel contract written plainly, for any tile.
func refMicro[T float32 | float64](mr, nr, kc int, a, b, c []T, ldc int, accum bool) {
	for i := range mr {
		for j := range nr {
			var acc T
			for p := range kc {
				acc = fma(a[p*mr+i], b[p*nr+j], acc)
			}
			if accum {
				acc += c[i*ldc+j]
			}
			c[i*ldc+j] = acc
		}
	}
}

// checkMicroKernel compares a micro-kernel with refMicro bit for bit on
// random panels, with and without accumulation into C.
func checkMicroKernel[T float32 | float64](t *testing.T, k microKernel[T]) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	for _, kc := range []int{1, 2, 7, 64, 256} {
		a, b := make([]T, kc*k.mr), make([]T, kc*k.nr)
		for i := range a {
			a[i] = T(r.NormFloat64())
		}
		for i := range b {
			b[i] = T(r.NormFloat64())
		}
		ldc := k.nr + 5
		for _, accum := range []bool{false, true} {
			c := make([]T, k.mr*ldc)
			for i := range c {
				c[i] = T(r.NormFloat64())
			}
			want := append([]T(nil), c...)
			k.run(kc, a, b, c, ldc, accum)
			refMicro(k.mr, k.nr, kc, a, b, want, ldc, accum)
			for i := range c {
				if c[i] != want[i] {
					t.Fatalf("%s kc=%d accum=%v: element %d (row %d col %d) = %v, want %v", k.name, kc, accum, i, i/ldc, i%ldc, c[i], want[i])
				}
			}
		}
	}
}

// kernelSet is a pair of micro-kernels products run with.
type kernelSet struct {
	name string
	f32  microKernel[float32]
	f64  microKernel[float64]
}

func TestGoMicroKernels(t *testing.T) {
	checkMicroKernel(t, goKernelF32)
	checkMicroKernel(t, goKernelF64)
}

// TestKernelsShareBlocking checks what makes every kernel give the same
// bits: kc is the compute type's, mc and nc are multiples of every
// kernel's tile after rounding (newGemmPlan rounds them down).
func TestKernelsShareBlocking(t *testing.T) {
	a := newMatView([]int{0}, axisOffsets([]int{300, 300}, []int{0}), axisOffsets([]int{300, 300}, []int{1}))
	g1 := newGemmPlan[float32](1, 300, 300, 300, a, a, goKernelF32, blockingF32)
	g2 := newGemmPlan[float32](1, 300, 300, 300, a, a, microKernel[float32]{name: "wide", mr: 12, nr: 32}, blockingF32)
	if g1.blk.kc != g2.blk.kc {
		t.Errorf("kc differs between kernels: %d and %d", g1.blk.kc, g2.blk.kc)
	}
	if g2.blk.mc%12 != 0 || g2.blk.nc%32 != 0 {
		t.Errorf("blocks %+v are not multiples of the 12×32 tile", g2.blk)
	}
}
