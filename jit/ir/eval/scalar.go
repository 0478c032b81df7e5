package eval

// Scalar semantics shared with the backends: the CPU backend's kernels call
// these per element, so integer division, remainder, pow and float-to-int
// conversion have one definition.

// IntDiv is integer division truncating toward zero, wrapping on overflow
// (MinInt / -1 = MinInt), with XLA's x/0 = -1.
func IntDiv[T int32 | int64](x, y T) T {
	if y == 0 {
		return -1
	}
	return x / y
}

// IntRem is the remainder of IntDiv (the sign of x), with XLA's x%0 = x.
func IntRem[T int32 | int64](x, y T) T {
	if y == 0 {
		return x
	}
	return x % y
}

// IntPow is integer exponentiation by repeated squaring, wrapping on
// overflow; a negative exponent gives the truncated 1/x^|y|: 1 for x = 1,
// ±1 for x = -1, 0 otherwise (also for x = 0).
func IntPow[T int32 | int64](x T, y int64) T {
	if y < 0 {
		switch x {
		case 1:
			return 1
		case -1:
			if y%2 == 0 {
				return 1
			}
			return -1
		}
		return 0
	}
	acc := T(1)
	for y > 0 {
		if y&1 == 1 {
			acc *= x
		}
		x *= x
		y >>= 1
	}
	return acc
}

// Saturate converts v to an integer in [lo, hi] as convert_element_type
// does: truncating toward zero, clamping out-of-range values, NaN → 0.
func Saturate(v float64, lo, hi int64) int64 {
	switch {
	case v != v:
		return 0
	case v <= float64(lo):
		return lo
	case v >= float64(hi): // float64(hi) rounds up to 2^31 or 2^63
		return hi
	}
	return int64(v)
}
