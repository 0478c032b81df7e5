package a

import "github.com/jitlint/jitlint/jit"

// An instance of a generic function runs only the branches its type
// arguments take: any(zero).(float64) is false in toHostT[float32], so its
// Float64s branch does not run when that instance is traced.

// toHostT copies a's elements into a Go slice of T.
func toHostT[T float32 | float64](a jit.Array) []T {
	var zero T
	if _, ok := any(zero).(float64); ok {
		out := []T{}
		for _, v := range a.Float64s() { // not reported: float64 is not the instance traced
			out = append(out, T(v))
		}
		return out
	}
	out := []T{}
	for _, v := range a.Float32s() { // want `a.Float32s\(\) converts a traced value to a Go \[\]float32`
		out = append(out, T(v))
	}
	return out
}

var giMedian = jit.Jit(func(x jit.Array) jit.Array {
	vals := toHostT[float32](x)
	return jit.Scalar(vals[len(vals)/2])
})
