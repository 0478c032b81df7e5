package cpu

import (
	"math"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// ulpsF32 returns |got - ref| in units of the float32 ulp at ref.
func ulpsF32(got float32, ref float64) float64 {
	if math.IsInf(ref, 0) || math.IsNaN(ref) {
		if float64(got) == ref || (math.IsNaN(ref) && got != got) {
			return 0
		}
		return math.Inf(1)
	}
	r := float32(ref)
	a := math.Abs(float64(r))
	var ulp float64
	if a < math.SmallestNonzeroFloat32*(1<<23) {
		ulp = math.SmallestNonzeroFloat32 // subnormal range
	} else {
		e := math.Floor(math.Log2(a))
		ulp = math.Ldexp(1, int(e)-23)
	}
	return math.Abs(float64(got)-ref) / ulp
}

// TestF32MathUlpError states and checks the f32 transcendental error of
// compiled kernels end to end: the kernels (f32math.go) evaluate in float64
// with a truncation error below 2^-33 relative and round once, so the result
// is within 0.5 + 2^-9 ulp of the float64 reference, on ordinary, tiny and
// huge arguments up to 1e6 (arange(1_000_000)). TestF32KernelSweep checks
// the kernels themselves on ten million inputs.
func TestF32MathUlpError(t *testing.T) {
	const maxUlps = 0.5 + 0x1p-9
	var xs []float64
	for i := 0; i < 1_000_000; i += 997 {
		xs = append(xs, float64(i)) // huge: arange(1_000_000)
	}
	for i := -300; i < 300; i++ {
		xs = append(xs, float64(i)/37) // ordinary
	}
	for e := -45; e < -20; e++ {
		xs = append(xs, math.Ldexp(1.3, e*4/3)) // tiny, including f32 subnormals
	}
	n := len(xs)
	in := ir.NewBuffer(ir.Float32, []int{n})
	for i, x := range xs {
		in.Set(i, x)
	}
	ref := map[string]func(float64) float64{
		ir.Sin: math.Sin, ir.Cos: math.Cos, ir.Tan: math.Tan, ir.Tanh: math.Tanh, ir.Exp: math.Exp,
		ir.Log: math.Log, ir.Log1p: math.Log1p, ir.Expm1: math.Expm1, ir.Sqrt: math.Sqrt,
		ir.Rsqrt:    func(x float64) float64 { return 1 / math.Sqrt(x) },
		ir.Logistic: func(x float64) float64 { return 1 / (1 + math.Exp(-x)) },
	}
	for prim, f := range ref {
		var b ir.Builder
		x := b.Input(av(ir.Float32, n))
		ex, l := compileCJ(t, b.Done("", b.Op(prim, nil, av(ir.Float32, n), x)))
		if _, ok := l.prog.steps[0].(*kernel); !ok {
			t.Fatalf("%s: not a fused kernel", prim)
		}
		out, err := ex.Execute([]*ir.Buffer{in})
		if err != nil {
			t.Fatal(err)
		}
		got := out[0].Data.([]float32)
		worst := 0.0
		for i, v := range in.Data.([]float32) {
			u := ulpsF32(got[i], f(float64(v)))
			if u > worst {
				worst = u
			}
			if u > maxUlps {
				t.Errorf("%s(%g) = %g, %.3f ulps from the float64 reference %g", prim, v, got[i], u, f(float64(v)))
				break
			}
		}
		t.Logf("%s: max error %.3f ulp", prim, worst)
	}
}
