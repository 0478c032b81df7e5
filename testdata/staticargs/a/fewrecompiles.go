package a

import "github.com/jitlint/jitlint/jit"

// Churn is at least two recompiles, with a compile for at least every
// other call: two values of a static argument are one recompile, however
// few the calls.
func frTwoValues(x jit.Array) jit.Array {
	for _, n := range []int{2, 4, 2, 4} {
		x = power.Call(n, x) // not reported: two values, one recompile
	}
	for _, n := range []int{2, 3, 4, 2} {
		x = power.Call(n, x) // want `static argument n takes a new value on every iteration: each call traces and compiles again \(3 values over 4 iterations → 3 compiles\)`
	}
	return x
}
