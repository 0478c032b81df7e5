package cpu

import "github.com/jitlint/jitlint/jit/ir"

// number is the element type of a numeric register.
type number interface {
	float32 | float64 | int32 | int64
}

// arithBinary returns the kernel of add, sub, mul, max or min, which float
// and integer registers share (the builtin max and min propagate NaN and
// order -0 < +0, as eval does), or nil for another primitive.
func arithBinary[T number](prim string) func(d, a, b []T) {
	switch prim {
	case ir.Add:
		return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] + b[i]
			}
		}
	case ir.Sub:
		return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] - b[i]
			}
		}
	case ir.Mul:
		return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] * b[i]
			}
		}
	case ir.Max:
		return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = max(a[i], b[i])
			}
		}
	case ir.Min:
		return func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = min(a[i], b[i])
			}
		}
	}
	return nil
}

// arithUnary returns the kernel of neg or sign, which float and integer
// registers share (sign keeps ±0 and NaN), or nil for another primitive.
func arithUnary[T number](prim string) func(d, a []T) {
	switch prim {
	case ir.Neg:
		return func(d, a []T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = -v
			}
		}
	case ir.Sign:
		return func(d, a []T) {
			d = d[:len(a)]
			for i, v := range a {
				switch {
				case v > 0:
					d[i] = 1
				case v < 0:
					d[i] = -1
				default:
					d[i] = v // 0, ±0 and NaN
				}
			}
		}
	}
	return nil
}
