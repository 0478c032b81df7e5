package cpu

import (
	"flag"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

var f32Exhaustive = flag.Bool("f32exhaustive", false, "sweep all 2^32 float32 inputs in TestF32KernelSweep (minutes)")

// f32Refs are the float64 references of the float32 kernels.
var f32Refs = map[string]func(float64) float64{
	ir.Sin: math.Sin, ir.Cos: math.Cos, ir.Tan: math.Tan, ir.Tanh: math.Tanh, ir.Exp: math.Exp,
	ir.Log: math.Log, ir.Log1p: math.Log1p, ir.Expm1: math.Expm1, ir.Sqrt: math.Sqrt,
	ir.Rsqrt: rsqrt, ir.Logistic: logistic,
}

// sweepStride is the step through the 2^32 float32 bit patterns: 10.5
// million inputs (odd, so every low-bit pattern and sign occurs).
const sweepStride = 409

// TestF32KernelSweep checks every float32 kernel on a strided sweep of all
// float32 bit patterns (all of them with -f32exhaustive): at most 1 ulp
// from the float64 math package's result (NaN where it is NaN, the same
// infinities and signed zeros), and the block kernel (the AVX2 code where
// the CPU has it) equal bit for bit to the scalar Go code.
func TestF32KernelSweep(t *testing.T) {
	stride := uint64(sweepStride)
	if *f32Exhaustive {
		stride = 1
	} else if raceEnabled || testing.Short() {
		stride = 8191
	}
	for prim, f := range f32Unaries {
		t.Run(prim, func(t *testing.T) {
			t.Parallel()
			worst, worstX := sweep(t, prim, f, f32Refs[prim], stride)
			t.Logf("%s: max error %.4f ulp (at %g), vector kernel: %v", prim, worst, worstX, f.vec != nil)
		})
	}
}

// sweep runs one function over the inputs i·stride (i ≥ 0, below 2^32) on
// all CPUs and returns the worst error in ulps and its argument.
func sweep(t *testing.T, prim string, f *f32Unary, ref func(float64) float64, stride uint64) (float64, float32) {
	const chunk = 1 << 16
	total := (1<<32 + stride - 1) / stride
	w := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	worst, worstX, fails := 0.0, float32(0), 0
	var wg sync.WaitGroup
	for g := 0; g < w; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, d := make([]float32, chunk), make([]float32, chunk)
			lw, lx := 0.0, float32(0)
			for c := uint64(g) * chunk; c < total; c += uint64(w) * chunk {
				n := int(min(chunk, total-c))
				for i := range n {
					a[i] = math.Float32frombits(uint32((c + uint64(i)) * stride))
				}
				f.block(d[:n], a[:n])
				for i, x := range a[:n] {
					s := f.scalar(x)
					u := ulpsF32(d[i], ref(float64(x)))
					bad := math.Float32bits(s) != math.Float32bits(d[i]) || u > 1 ||
						d[i] == 0 && math.Signbit(float64(d[i])) != math.Signbit(ref(float64(x)))
					if u > lw && !math.IsInf(u, 1) {
						lw, lx = u, x
					}
					if bad {
						mu.Lock()
						if fails++; fails <= 5 {
							t.Errorf("%s(%g [%#08x]): block %g [%#08x], scalar %g [%#08x], reference %g (%.3f ulp)",
								prim, x, math.Float32bits(x), d[i], math.Float32bits(d[i]), s, math.Float32bits(s), ref(float64(x)), u)
						}
						mu.Unlock()
					}
				}
			}
			mu.Lock()
			if lw > worst {
				worst, worstX = lw, lx
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return worst, worstX
}

// TestF32KernelSpecialValues checks IEEE special arguments against the
// float64 reference rounded to float32 (exactly, including the sign of
// zero and NaN-ness), on the block (vector) and scalar paths alike.
func TestF32KernelSpecialValues(t *testing.T) {
	inf := float32(math.Inf(1))
	xs := []float32{0, float32(math.Copysign(0, -1)), inf, -inf, float32(math.NaN()), 1, -1, 0.5, -0.5,
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32,
		0x1p-126, -0x1p-126, 88.72283, 88.72284, -87.33655, -103.97208, -103.97209, 9.01, -9.01, 0x1p29, 0x1p30, 1e30, -1e30}
	for prim, f := range f32Unaries {
		a := append([]float32(nil), xs...)
		d := make([]float32, len(a))
		f.block(d, a)
		for i, x := range a {
			want := float32(f32Refs[prim](float64(x)))
			got := []float32{d[i], f.scalar(x)}
			for _, g := range got {
				if want != want && g == g || want == want && (math.Float32bits(g) != math.Float32bits(want) && ulpsF32(g, f32Refs[prim](float64(x))) > 1) ||
					want == 0 && math.Signbit(float64(g)) != math.Signbit(float64(want)) {
					t.Errorf("%s(%g) = %g, want %g", prim, x, g, want)
				}
			}
		}
	}
}

// TestF32KernelAliasAndTails runs the block kernels in place and on lengths
// that are not multiples of the vector width, with a special argument in
// the middle, against the scalar code.
func TestF32KernelAliasAndTails(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for prim, f := range f32Unaries {
		for _, n := range []int{0, 1, 3, 4, 5, 17, 64, 2051} {
			a := make([]float32, n)
			for i := range a {
				a[i] = float32(r.NormFloat64() * 4)
			}
			if n > 8 {
				a[n/2] = float32(math.NaN())
				a[n/2+3] = -2e30 // special for trig, log, log1p
			}
			want := make([]float32, n)
			for i, x := range a {
				want[i] = f.scalar(x)
			}
			f.block(a, a)
			for i := range a {
				if math.Float32bits(a[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s in place, n=%d, element %d: %g, want %g", prim, n, i, a[i], want[i])
				}
			}
		}
	}
}

// TestF32PowSweep checks pow on ten million argument pairs (bases over the
// float32 bit patterns, exponents from a mix of small integers, halves,
// random reals and extremes) as TestF32KernelSweep checks unary kernels.
func TestF32PowSweep(t *testing.T) {
	n := 10_000_000
	if raceEnabled || testing.Short() {
		n = 200_000
	}
	r := rand.New(rand.NewPCG(3, 4))
	bs := []float32{0, 1, -1, 2, -2, 3, 0.5, -0.5, 1.5, 10, -10, 100, 1e10, -1e10, float32(math.Inf(1)), float32(math.NaN())}
	a, b, d := make([]float32, n), make([]float32, n), make([]float32, n)
	step := uint32((1 << 32) / uint64(n))
	for i := range a {
		a[i] = math.Float32frombits(uint32(i)*step + uint32(i%7))
		if i%3 == 0 {
			b[i] = bs[r.IntN(len(bs))]
		} else {
			b[i] = float32(r.NormFloat64() * 8)
		}
	}
	f32PowKernel.block(d, a, b)
	worst, fails := 0.0, 0
	for i := range a {
		ref := math.Pow(float64(a[i]), float64(b[i]))
		s := f32PowKernel.scalar(a[i], b[i])
		u := ulpsF32(d[i], ref)
		if u > worst && !math.IsInf(u, 1) {
			worst = u
		}
		if math.Float32bits(s) != math.Float32bits(d[i]) || u > 1 {
			if fails++; fails <= 5 {
				t.Errorf("pow(%g, %g): block %g, scalar %g, reference %g (%.3f ulp)", a[i], b[i], d[i], s, ref, u)
			}
		}
	}
	t.Logf("pow: max error %.4f ulp, vector kernel: %v", worst, f32PowKernel.vec != nil)
}

// TestF32TrigNearMultiplesOfPiOver2 checks sin, cos and tan where the
// range reduction cancels most: the float32 values next to k·π/2 for every
// k below 2^20 and for k sampled up to TrigLimit·2/π, against the float64
// reference (≤ 1 ulp) and the scalar code (bit for bit).
func TestF32TrigNearMultiplesOfPiOver2(t *testing.T) {
	var xs []float32
	add := func(k float64) {
		x := float32(k * math.Pi / 2)
		xs = append(xs, x, math.Nextafter32(x, 0), math.Nextafter32(x, float32(math.Inf(1))))
	}
	kmax := 1 << 20
	if raceEnabled || testing.Short() {
		kmax = 1 << 14
	}
	for k := 1; k < kmax; k++ {
		add(float64(k))
	}
	for k := float64(kmax); k < 0x1p29*2/math.Pi; k = math.Floor(k*1.0001) + 1 {
		add(k)
	}
	d := make([]float32, len(xs))
	for _, prim := range []string{ir.Sin, ir.Cos, ir.Tan} {
		f, ref := f32Unaries[prim], f32Refs[prim]
		f.block(d, xs)
		worst, fails := 0.0, 0
		for i, x := range xs {
			u := ulpsF32(d[i], ref(float64(x)))
			worst = max(worst, u)
			if s := f.scalar(x); u > 1 || math.Float32bits(s) != math.Float32bits(d[i]) {
				if fails++; fails <= 5 {
					t.Errorf("%s(%g): block %g, scalar %g, reference %g (%.3f ulp)", prim, x, d[i], s, ref(float64(x)), u)
				}
			}
		}
		t.Logf("%s: %d arguments next to multiples of π/2, max error %.4f ulp", prim, len(xs), worst)
	}
}

// TestSquareBlockMatchesPow checks integer_pow's y = 2 float32 loop against
// the reference's float32(math.Pow(x, 2)) bit for bit (NaN for NaN) on the
// strided sweep of all float32 bit patterns.
func TestSquareBlockMatchesPow(t *testing.T) {
	const n = (1 << 32) / sweepStride
	a := make([]float32, n)
	for i := range a {
		a[i] = math.Float32frombits(uint32(i * sweepStride))
	}
	inf := float32(math.Inf(1))
	a = append(a, float32(math.Copysign(0, -1)), inf, -inf, math.MaxFloat32, -math.SmallestNonzeroFloat32, 0x1p-75)
	d := make([]float32, len(a))
	squareBlock(d, a)
	for i, x := range a {
		want := float32(math.Pow(float64(x), 2))
		if math.Float32bits(d[i]) != math.Float32bits(want) && !(want != want && d[i] != d[i]) {
			t.Fatalf("%g²: %g, want %g", x, d[i], want)
		}
	}
}
