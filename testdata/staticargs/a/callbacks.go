package a

import (
	"math"

	"github.com/jitlint/jitlint/jit"
)

// A jitted call inside a callback that a helper calls in its loop runs once
// per iteration of that loop: what the callback's static argument is made
// of (the step the helper passes) is counted over the helper's loop.

const cbSteps = 200

var cbEps = jit.Jit(func(q jit.Array, e float64) jit.Array { return q.Mul(e) }, jit.StaticArgnums(1))

func cbRun(policy func(t int, q jit.Array) jit.Array, q jit.Array) {
	for t := 0; t < cbSteps; t++ {
		q = policy(t, q)
	}
}

func callbacks() {
	linear := func(t int) float64 { return math.Max(0.05, 1-float64(t)/float64(cbSteps)) }
	twoPhase := func(t int) float64 {
		if t < cbSteps/2 {
			return 0.5
		}
		return 0.05
	}
	q := jit.Zeros(jit.Float32, 4)
	cbRun(func(t int, q jit.Array) jit.Array {
		return cbEps.Call(q, linear(t)) // want `static argument e takes a new value on every iteration: each call traces and compiles again \(191 values over 200 iterations → 191 compiles\)`
	}, q)
	cbRun(func(t int, q jit.Array) jit.Array {
		return cbEps.Call(q, twoPhase(t)) // not reported: two values
	}, q)
}
