package a

import "github.com/jitlint/jitlint/jit"

// Churn is at least two recompiles, with a compile for at least every
// other call. Two shapes are one recompile however few the calls; over a
// loop of known trips a value takes at most one shape per trip, and the
// calls of a loop inside repeat it, whatever the shape is made of.

var frPrefill = jit.Jit(func(x jit.Array) jit.Array { return x.Sum() })

func frOneHots(tokens []int) jit.Array { return jit.Zeros(jit.Float32, len(tokens), 16) }

func frTwoPrompts() {
	for _, p := range [][]int{{1, 4, 2, 7}, {5, 0, 11, 2, 8, 8, 6, 1, 3}} {
		frPrefill.Call(frOneHots(p[:len(p)-1])) // not reported: two prompts, one recompile
	}
	for _, n := range []int{4, 9, 4, 9} {
		frPrefill.Call(jit.Zeros(jit.Float32, n)) // not reported: two shapes, one recompile
	}
	for _, p := range [][]int{{1}, {2, 3}, {4, 5, 6}} {
		for range 4 {
			frPrefill.Call(frOneHots(p)) // not reported: three shapes for twelve calls
		}
	}
	for _, p := range [][]int{{1}, {2, 3}, {4, 5, 6}} {
		frPrefill.Call(frOneHots(p)) // want `argument x has a different shape on each iteration: one compile per distinct shape \(3 iterations → 3 compiles\)`
	}
}
