package a

import (
	"math"

	"github.com/jitlint/jitlint/jit"
)

// A static argument that a data test picks from a table (the order that
// validates best) is one of the table's values: the loop it bounds
// unrolls at most the largest of them.

func csSmooth(p int, x jit.Array) jit.Array {
	for j := 0; j < p; j++ { // want `loop is unrolled into the trace up to 40 times`
		x = x.Add(x.Mul(0.5))
	}
	return x
}

func csPick(errs []float64, orders []int) int {
	best, bestErr := 0, math.Inf(1)
	for i, p := range orders {
		if errs[i] < bestErr {
			best, bestErr = p, errs[i]
		}
	}
	return best
}

func csSelect(errs []float64) {
	f := jit.Jit(csSmooth, jit.StaticArgnums(0))
	f.Call(csPick(errs, []int{1, 2, 4, 8}), jit.Ones(jit.Float32, 4))
	f.Call(csPick(errs, []int{8, 16, 40}), jit.Ones(jit.Float32, 4))
}
