package jit_test

import (
	"math"
	"testing"

	"github.com/jitlint/jitlint/jit"
)

var inputs = []float64{-3.5, -1, -0.25, 0, 0.3, 1, 2.5, 10, 1000}

// tol is the relative tolerance of each float dtype against float64.
var tol = map[jit.DType]float64{jit.Float64: 1e-14, jit.Float32: 2e-6, jit.Float16: 2e-3, jit.BFloat16: 1.6e-2}

func fromFloat64(vs []float64, dt jit.DType) jit.Array {
	return jit.FromSlice(vs).Astype(dt)
}

func TestUnaryAgainstFloat64(t *testing.T) {
	ops := []struct {
		name string
		op   func(jit.Array) jit.Array
		ref  func(float64) float64
	}{
		{"neg", jit.Array.Neg, func(v float64) float64 { return -v }},
		{"abs", jit.Array.Abs, math.Abs},
		{"sign", jit.Array.Sign, func(v float64) float64 {
			if v == 0 {
				return 0
			}
			return math.Copysign(1, v)
		}},
		{"sin", jit.Array.Sin, math.Sin}, {"cos", jit.Array.Cos, math.Cos}, {"tan", jit.Array.Tan, math.Tan},
		{"tanh", jit.Array.Tanh, math.Tanh}, {"exp", func(a jit.Array) jit.Array { return a.Mul(0.05).Exp() }, func(v float64) float64 { return math.Exp(v * 0.05) }},
		{"log", func(a jit.Array) jit.Array { return a.Abs().Add(1).Log() }, func(v float64) float64 { return math.Log(math.Abs(v) + 1) }},
		{"log1p", func(a jit.Array) jit.Array { return a.Abs().Log1p() }, func(v float64) float64 { return math.Log1p(math.Abs(v)) }},
		{"expm1", func(a jit.Array) jit.Array { return a.Mul(0.001).Expm1() }, func(v float64) float64 { return math.Expm1(v * 0.001) }},
		{"sqrt", func(a jit.Array) jit.Array { return a.Abs().Sqrt() }, func(v float64) float64 { return math.Sqrt(math.Abs(v)) }},
		{"rsqrt", func(a jit.Array) jit.Array { return a.Abs().Add(1).Rsqrt() }, func(v float64) float64 { return 1 / math.Sqrt(math.Abs(v)+1) }},
		{"floor", jit.Array.Floor, math.Floor}, {"ceil", jit.Array.Ceil, math.Ceil},
		{"logistic", jit.Array.Logistic, func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }},
		{"relu", jit.Relu, func(v float64) float64 { return math.Max(v, 0) }},
		{"softplus", jit.Softplus, func(v float64) float64 { return math.Log1p(math.Exp(v)) }},
		{"square", func(a jit.Array) jit.Array { return a.Pow(2) }, func(v float64) float64 { return v * v }},
		{"inverse cube", func(a jit.Array) jit.Array { return a.Add(5000).Pow(-3) }, func(v float64) float64 { return math.Pow(v+5000, -3) }},
	}
	for _, dt := range []jit.DType{jit.Float32, jit.Float64, jit.Float16, jit.BFloat16} {
		for _, o := range ops {
			t.Run(dt.String()+"/"+o.name, func(t *testing.T) {
				// round the inputs to the dtype first, so only the op's error counts
				x := fromFloat64(inputs, dt)
				in := x.Float64s()
				got := jit.Jit(o.op).Call(x)
				if got.Dtype() != dt {
					t.Fatalf("dtype %v, want %v", got.Dtype(), dt)
				}
				for i, g := range got.Float64s() {
					want := o.ref(in[i])
					if math.IsInf(want, 0) || math.Abs(want) > 60000 && dt == jit.Float16 {
						continue
					}
					if d := math.Abs(g - want); d > tol[dt]*math.Max(math.Abs(want), 1e-3) && d > 1e-300 {
						t.Errorf("%s(%v) = %v, want %v (error %.3g)", o.name, in[i], g, want, d)
					}
				}
			})
		}
	}
}

func TestBinaryPromotionAndIntegers(t *testing.T) {
	i32 := jit.FromSlice([]int32{7, -7, 9})
	cases := []struct {
		name string
		got  jit.Array
		dt   jit.DType
		want []float64
	}{
		{"i32 + go int stays i32", i32.Add(1), jit.Int32, []float64{8, -6, 10}},
		{"i32 * go float is f32", i32.Mul(0.5), jit.Float32, []float64{3.5, -3.5, 4.5}},
		{"i32 / i32 is true division", i32.Div(jit.FromSlice([]int32{2, 2, 3})), jit.Float32, []float64{3.5, -3.5, 3}},
		{"i32 + i64 is i64", i32.Add(jit.FromSlice([]int64{1, 1, 1})), jit.Int64, []float64{8, -6, 10}},
		{"f32 + f64 is f64", jit.FromSlice([]float32{1, 2, 3}).Add(jit.FromSlice([]float64{0.5, 0.5, 0.5})), jit.Float64, []float64{1.5, 2.5, 3.5}},
		{"bf16 + f16 is f32", jit.Ones(jit.BFloat16, 3).Add(jit.Ones(jit.Float16, 3)), jit.Float32, []float64{2, 2, 2}},
		{"f16 * go float stays f16", jit.Ones(jit.Float16, 3).Mul(2.5), jit.Float16, []float64{2.5, 2.5, 2.5}},
		{"max/min", i32.Max(0).Add(i32.Min(0)), jit.Int32, []float64{7, -7, 9}},
		{"pow float", jit.FromSlice([]float32{4, 9, 16}).Pow(0.5), jit.Float32, []float64{2, 3, 4}},
		{"compare", i32.Gt(0).Astype(jit.Int32), jit.Int32, []float64{1, 0, 1}},
		{"and/or/not", i32.Gt(0).And(i32.Lt(8)).Or(i32.Eq(9)).Not().Astype(jit.Float32), jit.Float32, []float64{0, 1, 0}},
		{"bool sum is i32", i32.Gt(0).Sum(), jit.Int32, []float64{2}},
		{"int mean is f32", i32.Mean(), jit.Float32, []float64{3}},
	}
	for _, c := range cases {
		if c.got.Dtype() != c.dt {
			t.Errorf("%s: dtype %v, want %v", c.name, c.got.Dtype(), c.dt)
		}
		got := c.got.Float64s()
		for i := range c.want {
			if got[i] != c.want[i] {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}

func TestShapesAndReductions(t *testing.T) {
	x := jit.Arange(6, jit.Float32).Reshape(2, 3) // [[0 1 2] [3 4 5]]
	f := jit.Jit(func(x jit.Array) []jit.Array {
		return []jit.Array{
			x.Sum(0), x.Sum(1), x.Mean(), x.MaxReduce(0), x.MinReduce(-1),
			x.Transpose().Reshape(-1), x.Slice([]int{0, 1}, []int{2, 3}).Reshape(4),
			x.MatMul(x.Transpose()).Reshape(4), jit.Concatenate(0, x, x.Add(10)).Sum(1),
			x.Reshape(6).MatMul(jit.Ones(jit.Float32, 6)),
		}
	})
	want := [][]float64{
		{3, 5, 7}, {3, 12}, {2.5}, {3, 4, 5}, {0, 3},
		{0, 3, 1, 4, 2, 5}, {1, 2, 4, 5},
		{5, 14, 14, 50}, {3, 12, 33, 42},
		{15},
	}
	for i, got := range f.Call(x) {
		closeTo(t, "result", got.Float32s(), want[i], 0)
	}
	padded, mask, err := jit.PadTo(jit.FromSlice([]float32{5, -2}), 4)
	if err != nil {
		t.Fatal(err)
	}
	closeTo(t, "padded", padded.Float32s(), []float64{5, -2, 0, 0}, 0)
	closeTo(t, "mask", mask.Float32s(), []float64{1, 1, 0, 0}, 0)
	if _, _, err := jit.PadTo(jit.Zeros(jit.Float32, 5), 4); err == nil {
		t.Error("PadTo accepted a sequence longer than the size")
	}
}

func TestHeavyAgainstFloat64(t *testing.T) {
	// the codelab's heavy on a small input, against a float64 loop rounded to f32 per step
	x := jit.Arange(64, jit.Float32).Div(8)
	got := jit.Jit(func(x jit.Array) jit.Array {
		y := x
		for i := 0; i < 20; i++ {
			y = y.Sin().Mul(y.Cos()).Add(y.Tanh())
		}
		return y
	}).Call(x).Float32s()
	for i, v := range x.Float32s() {
		y := float32(v)
		for k := 0; k < 20; k++ {
			yd := float64(y)
			y = float32(float32(math.Sin(yd))*float32(math.Cos(yd))) + float32(math.Tanh(yd))
		}
		if d := math.Abs(float64(got[i] - y)); d > 1e-4*math.Max(1, math.Abs(float64(y))) {
			t.Errorf("heavy(%v) = %v, want %v", v, got[i], y)
		}
	}
}

// TestSizeOneBroadcastRuns: binary ops whose operands broadcast size-1
// dimensions (no broadcast_in_dim in the jaxpr) compute the same compiled
// as eagerly, at top level and inside control flow.
func TestSizeOneBroadcastRuns(t *testing.T) {
	f := func(x, y jit.Array) jit.Array {
		z := x.Add(y).Mul(x) // f32[2,1] op f32[1,3]
		return jit.Cond(z.Sum().Gt(0), func(z jit.Array) jit.Array { return z.Sub(x) }, func(z jit.Array) jit.Array { return z }, z)
	}
	x := jit.FromSlice([]float32{1, -2}, 2, 1)
	y := jit.FromSlice([]float32{0.5, 1.5, 2.5}, 1, 3)
	want := f(x, y).Float64s()
	got := jit.Jit(f).Call(x, y)
	if s := got.Shape(); len(s) != 2 || s[0] != 2 || s[1] != 3 {
		t.Fatalf("shape %v", s)
	}
	closeTo(t, "size-1 broadcast", got.Float32s(), want, 0)
}
