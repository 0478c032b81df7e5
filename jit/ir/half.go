package ir

import "math"

// RoundTo rounds v to the precision of a float dtype stored as float32:
// Float32 rounds to float32, BFloat16 and Float16 additionally round to
// nearest-even at their precision (with Float16's range: overflow to ±Inf,
// subnormals kept).
func RoundTo(dt DType, v float64) float32 {
	f := float32(v)
	switch dt {
	case BFloat16:
		return RoundBF16(f)
	case Float16:
		return RoundF16(f)
	}
	return f
}

// RoundBF16 rounds a float32 to the nearest bfloat16 (ties to even).
func RoundBF16(f float32) float32 {
	if f != f {
		return f
	}
	b := math.Float32bits(f)
	b += 0x7fff + (b>>16)&1
	return math.Float32frombits(b &^ 0xffff)
}

// RoundF16 rounds a float32 to the nearest IEEE half-precision value (ties to even).
func RoundF16(f float32) float32 {
	if f != f || math.IsInf(float64(f), 0) {
		return f
	}
	a := math.Abs(float64(f))
	if a >= 65520 { // rounds past the largest half (65504)
		return float32(math.Copysign(math.Inf(1), float64(f)))
	}
	// Quantum: 2^(e-10) for normals (e = exponent), 2^-24 for subnormals.
	exp := math.Floor(math.Log2(a))
	if a == 0 {
		return f
	}
	if exp < -14 {
		exp = -14
	}
	q := math.Ldexp(1, int(exp)-10)
	r := math.RoundToEven(a/q) * q
	return float32(math.Copysign(r, float64(f)))
}
