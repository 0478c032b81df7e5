package a

import (
	"math"

	"github.com/jitlint/jitlint/jit"
)

// A count capped by a min is few only when the calls are many more than
// the values below the cap: over six frames, a substep count worked out
// from the data's speed can be new on every frame; over a thousand steps,
// a length capped at 32 is at most 33 compiles.

var ccSteps = jit.Jit(func(n int, x jit.Array) jit.Array {
	for range n {
		x = x.Mul(0.5)
	}
	return x
}, jit.StaticArgnums(0))

func ccSpeed(x jit.Array) float64 { return math.Abs(float64(x.Float32s()[0])) }

func cappedCounts(x jit.Array, rows [][]float32) {
	for f := 0; f < 6; f++ {
		n := min(32, int(math.Ceil((ccSpeed(x)+2)*float64(f+1))))
		x = ccSteps.Call(n, x) // want `static argument n takes a new value on every iteration`
	}
	for step := 0; step < 1000; step++ {
		ccSteps.Call(min(32, len(rows[step%len(rows)])), x) // not reported: at most 33 values for 1000 calls
	}
}
