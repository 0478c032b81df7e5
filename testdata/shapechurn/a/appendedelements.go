package a

import "github.com/jitlint/jitlint/jit"

// The elements of a slice that a loop appended to (in a helper, generic or
// not) are the values appended: a size computed from them takes as many
// values as it takes over those, however many elements there are.

// aeNumber is the host numbers aeRange makes.
type aeNumber interface{ ~int | ~int64 | ~float64 }

// aeRange returns 0, 1, …, n-1.
func aeRange[T aeNumber](n T) []T {
	out := make([]T, 0, int(n))
	for i := T(0); i < n; i++ {
		out = append(out, i)
	}
	return out
}

// aeMap applies f to every element.
func aeMap[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// aeRoundUp rounds n up to a multiple of m.
func aeRoundUp(n, m int) int { return (n + m - 1) / m * m }

func appendedElements() {
	lengths := aeMap(aeRange(12), func(i int) int { return 3 + 3*i })
	for _, n := range lengths {
		x, mask, _ := jit.PadTo(jit.Zeros(jit.Float32, n), aeRoundUp(n, 16))
		maskedMean.Call(x, mask) // not reported: sizes 16, 32 and 48
	}
	for _, n := range lengths {
		sumSq.Call(jit.Zeros(jit.Float32, n)) // want `argument x has a different shape on each iteration: one compile per distinct shape \(up to 12 compiles, one per iteration\)`
	}
}
