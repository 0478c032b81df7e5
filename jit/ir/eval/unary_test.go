package eval

import (
	"math"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// TestUnaryFloat checks every float unary primitive on every float dtype
// against the float64 reference rounded to the dtype.
func TestUnaryFloat(t *testing.T) {
	in := []float64{-2.5, -1, -0.3, 0, 0.7, 1, 3.25, 10}
	ref := map[string]func(float64) float64{
		ir.Neg: func(x float64) float64 { return -x },
		ir.Sign: func(x float64) float64 {
			if x > 0 {
				return 1
			} else if x < 0 {
				return -1
			}
			return 0
		},
		ir.Abs: math.Abs, ir.Sin: math.Sin, ir.Cos: math.Cos, ir.Tan: math.Tan, ir.Tanh: math.Tanh,
		ir.Exp: math.Exp, ir.Log: math.Log, ir.Log1p: math.Log1p, ir.Expm1: math.Expm1,
		ir.Sqrt: math.Sqrt, ir.Rsqrt: func(x float64) float64 { return 1 / math.Sqrt(x) },
		ir.Floor: math.Floor, ir.Ceil: math.Ceil,
		ir.Logistic: func(x float64) float64 { return 1 / (1 + math.Exp(-x)) },
	}
	for prim, f := range ref {
		for _, dt := range floatTypes {
			x := vec(dt, in...)
			got := mustApply(t, prim, nil, x)
			want := make([]float64, len(in))
			for i := range in {
				want[i] = rnd(dt, f(x.At(i)))
			}
			wantBuf(t, got, dt, []int{len(in)}, want...)
		}
	}
}

// TestUnarySpecialValues checks NaN, Inf and signed zeros.
func TestUnarySpecialValues(t *testing.T) {
	x := vec(ir.Float32, nan, inf, -inf, 0, -1)
	wantBuf(t, mustApply(t, ir.Sign, nil, x), ir.Float32, []int{5}, nan, 1, -1, 0, -1)
	wantBuf(t, mustApply(t, ir.Log, nil, x), ir.Float32, []int{5}, nan, inf, nan, -inf, nan)
	wantBuf(t, mustApply(t, ir.Sqrt, nil, x), ir.Float32, []int{5}, nan, inf, nan, 0, nan)
	wantBuf(t, mustApply(t, ir.Rsqrt, nil, x), ir.Float32, []int{5}, nan, 0, nan, inf, nan)
	wantBuf(t, mustApply(t, ir.Exp, nil, x), ir.Float32, []int{5}, nan, inf, 0, 1, float64(float32(math.Exp(-1))))
	wantBuf(t, mustApply(t, ir.Logistic, nil, x), ir.Float32, []int{5}, nan, 1, 0, 0.5, float64(float32(1/(1+math.E))))
	// exp(100) overflows f32 and f16 but not f64.
	big := []float64{100}
	wantBuf(t, mustApply(t, ir.Exp, nil, vec(ir.Float32, big...)), ir.Float32, []int{1}, inf)
	wantBuf(t, mustApply(t, ir.Exp, nil, vec(ir.Float64, big...)), ir.Float64, []int{1}, math.Exp(100))
	wantBuf(t, mustApply(t, ir.Exp, nil, vec(ir.Float16, 12)), ir.Float16, []int{1}, inf) // e^12 ≈ 162755 > 65504
	wantBuf(t, mustApply(t, ir.Exp, nil, vec(ir.BFloat16, 12)), ir.BFloat16, []int{1}, 162816)
	negz := mustApply(t, ir.Neg, nil, vec(ir.Float32, 0))
	if !math.Signbit(negz.At(0)) {
		t.Fatalf("neg 0 = %v, want -0", negz.At(0))
	}
}

// TestUnaryHalfRounding checks that bf16/f16 results are rounded to their precision.
func TestUnaryHalfRounding(t *testing.T) {
	// sin(1) = 0.8414709848...; bf16 has 8 significant bits: 0.83984375 / 0.84375.
	wantBuf(t, mustApply(t, ir.Sin, nil, vec(ir.BFloat16, 1)), ir.BFloat16, []int{1}, 0.83984375)
	// f16 has 11 significant bits: quantum 2^-11 in [0.5, 1): 0.84130859375.
	wantBuf(t, mustApply(t, ir.Sin, nil, vec(ir.Float16, 1)), ir.Float16, []int{1}, 0.84130859375)
	// sqrt(2) in f32.
	wantBuf(t, mustApply(t, ir.Sqrt, nil, vec(ir.Float32, 2)), ir.Float32, []int{1}, float64(float32(math.Sqrt2)))
}

// TestUnaryInt checks integer neg, sign, abs, not and integer_pow, including wraparound.
func TestUnaryInt(t *testing.T) {
	x := i32vec(-7, 0, 5, math.MinInt32)
	wantBuf(t, mustApply(t, ir.Neg, nil, x), ir.Int32, []int{4}, 7, 0, -5, math.MinInt32)
	wantBuf(t, mustApply(t, ir.Sign, nil, x), ir.Int32, []int{4}, -1, 0, 1, -1)
	wantBuf(t, mustApply(t, ir.Abs, nil, x), ir.Int32, []int{4}, 7, 0, 5, math.MinInt32)
	wantBuf(t, mustApply(t, ir.Not, nil, x), ir.Int32, []int{4}, 6, -1, -6, math.MaxInt32)
	y := i64vec(-3, 2, 10, 1<<40)
	wantBuf(t, mustApply(t, ir.IntegerPow, ir.Params{"y": 3}, y), ir.Int64, []int{4}, -27, 8, 1000, 0) // 2^120 wraps to 0
	wantBuf(t, mustApply(t, ir.IntegerPow, ir.Params{"y": 0}, y), ir.Int64, []int{4}, 1, 1, 1, 1)
	wantBuf(t, mustApply(t, ir.Abs, nil, y), ir.Int64, []int{4}, 3, 2, 10, 1<<40)
	_, err := Apply(ir.IntegerPow, ir.Params{"y": -1}, []*ir.Buffer{y})
	wantErr(t, err, "eval integer_pow", "negative power")
	_, err = Apply(ir.Sin, nil, []*ir.Buffer{y})
	wantErr(t, err, "eval sin", "not defined for int64")
}

// TestIntegerPowFloat checks positive, zero and negative exponents on floats.
func TestIntegerPowFloat(t *testing.T) {
	for _, dt := range floatTypes {
		x := vec(dt, 2, -3, 0, 0.5)
		wantBuf(t, mustApply(t, ir.IntegerPow, ir.Params{"y": 3}, x), dt, []int{4}, 8, -27, 0, 0.125)
		wantBuf(t, mustApply(t, ir.IntegerPow, ir.Params{"y": -2}, x), dt, []int{4}, 0.25, rnd(dt, 1.0/9), inf, 4)
		wantBuf(t, mustApply(t, ir.IntegerPow, ir.Params{"y": 0}, vec(dt, nan, 0)), dt, []int{2}, 1, 1)
	}
	wantBuf(t, mustApply(t, ir.IntegerPow, ir.Params{"y": -1}, vec(ir.Float64, 3)), ir.Float64, []int{1}, 1.0/3)
	_, err := Apply(ir.IntegerPow, nil, []*ir.Buffer{vec(ir.Float32, 1)})
	wantErr(t, err, "missing parameter y")
}

// TestNotBool checks logical not and that float math is rejected on bools.
func TestNotBool(t *testing.T) {
	wantBuf(t, mustApply(t, ir.Not, nil, bvec(true, false)), ir.Bool, []int{2}, 0, 1)
	_, err := Apply(ir.Neg, nil, []*ir.Buffer{bvec(true)})
	wantErr(t, err, "eval neg", "bool")
	_, err = Apply(ir.Not, nil, []*ir.Buffer{vec(ir.Float32, 1)})
	wantErr(t, err, "eval not", "float32")
}
