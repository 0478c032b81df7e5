package gpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// ulpErr is |got - want| in units of the f32 spacing at want.
func ulpErr(got float32, want float64) float64 {
	w := float32(want)
	switch {
	case math.IsNaN(want):
		if math.IsNaN(float64(got)) {
			return 0
		}
		return math.Inf(1)
	case math.IsInf(float64(w), 0) || math.IsInf(float64(got), 0):
		if got == w {
			return 0
		}
		return math.Inf(1)
	}
	a := float32(math.Abs(float64(w)))
	spacing := float64(math.Nextafter32(a, float32(math.Inf(1))) - a)
	return math.Abs(float64(got)-want) / spacing
}

// sample returns n values log-uniform in [lo, hi] with random signs when
// signed is set.
func sample(r *rand.Rand, n int, lo, hi float64, signed bool) []float32 {
	out := make([]float32, n)
	for i := range out {
		v := math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo)))
		if signed && r.IntN(2) == 0 {
			v = -v
		}
		out[i] = float32(v)
	}
	return out
}

// TestTranscendentalULP measures the emitted PTX of each f32 transcendental,
// run by the PTX interpreter, against math in float64, on ordinary, tiny and
// huge arguments. The bound is 1 ulp; the measured maxima are logged
// (go test -v -run ULP) and recorded in bench/RESULTS.md.
func TestTranscendentalULP(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		prim   string
		ref    func(float64) float64
		ranges [][2]float64 // log-uniform magnitude ranges
		signed bool
	}{
		{ir.Sin, math.Sin, [][2]float64{{1e-3, 10}, {1e-30, 1e-3}, {10, 1e6}, {1e6, 1e15}, {1e15, 3.4e38}}, true},
		{ir.Cos, math.Cos, [][2]float64{{1e-3, 10}, {1e-30, 1e-3}, {10, 1e6}, {1e6, 1e15}, {1e15, 3.4e38}}, true},
		{ir.Tan, math.Tan, [][2]float64{{1e-3, 10}, {1e-30, 1e-3}, {10, 1e6}, {1e6, 1e15}, {1e15, 3.4e38}}, true},
		{ir.Exp, math.Exp, [][2]float64{{1e-3, 88}, {1e-30, 1e-3}, {88, 200}}, true},
		{ir.Log, math.Log, [][2]float64{{1e-3, 1e3}, {1e-45, 1e-3}, {1e3, 3e38}, {0.9, 1.1}}, false},
		{ir.Tanh, math.Tanh, [][2]float64{{1e-3, 10}, {1e-30, 1e-3}, {10, 1e30}}, true},
		{ir.Log1p, math.Log1p, [][2]float64{{1e-3, 1e3}, {1e-30, 1e-3}, {1e3, 3e38}}, false},
		{ir.Expm1, math.Expm1, [][2]float64{{1e-3, 88}, {1e-30, 1e-3}}, true},
		{ir.Logistic, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, [][2]float64{{1e-3, 100}, {1e-30, 1e-3}}, true},
		{ir.Rsqrt, func(x float64) float64 { return 1 / math.Sqrt(x) }, [][2]float64{{1e-38, 1e38}}, false},
	}
	for _, c := range cases {
		t.Run(c.prim, func(t *testing.T) {
			var xs []float32
			for _, rg := range c.ranges {
				xs = append(xs, sample(r, 2000, rg[0], rg[1], c.signed)...)
			}
			xs = append(xs, 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.NaN()), 1, -1, 1e-45)
			if c.prim == ir.Sin || c.prim == ir.Cos || c.prim == ir.Tan {
				for i := range 1000 { // the codelab's arange(1_000_000) includes these
					xs = append(xs, float32(i*997))
				}
				// Around the Payne–Hanek threshold 2^40, the largest f32, and
				// f32 values close to multiples of pi/2.
				xs = append(xs, 0x1p40, math.Nextafter32(0x1p40, 0), -0x1p40, math.MaxFloat32, -math.MaxFloat32,
					1.5707964, 16367173, 1.6147e+13, 1.0e+22, 8.4e+34)
			}
			got := runUnaryF32(t, c.prim, xs)
			worst, at := 0.0, float32(0)
			for i, x := range xs {
				want := c.ref(float64(x))
				if c.prim == ir.Log1p && x < -1 || c.prim == ir.Log && x < 0 {
					want = math.NaN()
				}
				if e := ulpErr(got[i], want); e > worst {
					worst, at = e, x
				}
			}
			t.Logf("%s: max error %.3f ulp (at x=%g) over %d arguments", c.prim, worst, at, len(xs))
			if worst > 1 {
				t.Errorf("%s: max error %.3f ulp at x=%g exceeds 1 ulp", c.prim, worst, at)
			}
		})
	}
}
