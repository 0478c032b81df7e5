package cpu

import (
	"math"

	"github.com/jitlint/jitlint/jit/ir"
)

// f32Unary is a float32 elementwise function: its float64 polynomial
// evaluation, the lanes that evaluation does not cover (nil: none) with
// their float64 math-package reference, and the vector kernel (nil when
// the CPU or the build has none).
type f32Unary struct {
	poly, ref func(float64) float64
	special   func(float64) bool
	vec       func(d, a []float32) int
}

// f32Unaries are the float32 kernels of the unary primitives that have one.
var f32Unaries = map[string]*f32Unary{
	ir.Sin:      {poly: sinPoly, ref: math.Sin, special: trigSpecial},
	ir.Cos:      {poly: cosPoly, ref: math.Cos, special: trigSpecial},
	ir.Tan:      {poly: tanPoly, ref: math.Tan, special: trigSpecial},
	ir.Exp:      {poly: expPoly, ref: math.Exp, special: isNaN},
	ir.Expm1:    {poly: expm1Poly, ref: math.Expm1, special: isNaN},
	ir.Tanh:     {poly: tanhPoly, ref: math.Tanh, special: isNaN},
	ir.Logistic: {poly: logisticPoly, ref: logistic, special: isNaN},
	ir.Log:      {poly: logPos, ref: math.Log, special: logSpecial},
	ir.Log1p:    {poly: log1pPoly, ref: math.Log1p, special: log1pSpecial},
	ir.Sqrt:     {poly: math.Sqrt},
	ir.Rsqrt:    {poly: rsqrt},
}

// scalar computes f(x) without the vector kernel.
func (f *f32Unary) scalar(x float32) float32 {
	xd := float64(x)
	if f.special != nil && f.special(xd) {
		return float32(f.ref(xd))
	}
	return float32(f.poly(xd))
}

// block computes d[i] = f(a[i]); d may be a. The vector kernel runs until
// eight lanes with a special argument (or the last few lanes); the scalar
// code computes the next four before the kernel resumes after them.
func (f *f32Unary) block(d, a []float32) {
	d = d[:len(a)]
	i := 0
	if f.vec != nil {
		n := len(a) &^ 3
		for i < n {
			i += f.vec(d[i:n], a[i:n])
			for e := min(i+4, n); i < e; i++ {
				d[i] = f.scalar(a[i])
			}
		}
	}
	for ; i < len(a); i++ {
		d[i] = f.scalar(a[i])
	}
}

// f32Pow is the float32 kernel of pow.
type f32Pow struct {
	vec func(d, a, b []float32) int
}

var f32PowKernel = &f32Pow{}

// scalar computes a^b without the vector kernel.
func (*f32Pow) scalar(a, b float32) float32 {
	ad, bd := float64(a), float64(b)
	if powSpecial(ad, bd) {
		return float32(math.Pow(ad, bd))
	}
	return float32(powPoly(ad, bd))
}

// block computes d[i] = a[i]^b[i]; d may be a or b.
func (f *f32Pow) block(d, a, b []float32) {
	d, b = d[:len(a)], b[:len(a)]
	i := 0
	if f.vec != nil {
		n := len(a) &^ 3
		for i < n {
			i += f.vec(d[i:n], a[i:n], b[i:n])
			for e := min(i+4, n); i < e; i++ {
				d[i] = f.scalar(a[i], b[i])
			}
		}
	}
	for ; i < len(a); i++ {
		d[i] = f.scalar(a[i], b[i])
	}
}

// squareBlock computes d[i] = a[i]² in float32: integer_pow with y = 2.
// The float32 product is the exact square rounded once, as is the
// reference's float64 math.Pow(x, 2) (exact for a float32 x) rounded to
// float32, so the two agree.
func squareBlock(d, a []float32) {
	d = d[:len(a)]
	for i, v := range a {
		d[i] = v * v
	}
}
