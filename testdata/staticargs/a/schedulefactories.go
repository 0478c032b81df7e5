package a

import (
	"fixtures/staticargs/sched"

	"github.com/jitlint/jitlint/jit"
)

// Schedules made by factories in another package: the closure a factory
// returns is summarised by what it returns, in terms of its own parameter
// and the factory's arguments, so that the values a static learning rate
// takes are counted at the call, as for a schedule written in place.

var sfStep = jit.Jit(func(x jit.Array, lr float64) jit.Array { return x.Mul(lr) }, jit.StaticArgnums(1))

func scheduleFactories(x jit.Array) {
	decay := sched.StepDecay(0.05, 0.5, 25, 2)
	for step := 0; step < 90; step++ {
		sfStep.Call(x, decay(step)) // not reported: three rates over 90 steps
	}
	warm := sched.Linear(0.001, 0.1, 12)
	for step := 0; step < 12; step++ {
		sfStep.Call(x, warm(step)) // want `static argument lr takes a new value on every iteration: each call traces and compiles again \(12 iterations → 12 compiles\)`
	}
}
