package a

import (
	"github.com/jitlint/jitlint/jit"

	"fixtures/staticargs/sched"
)

// Schedules from a package that does not import jit: a chooser of three
// plateaus is three compiles; a decay is a new value on every step.
func schedules(x jit.Array) {
	for epoch := range 30 {
		scaleLR.Call(sched.Plateau(epoch), x)
	}
	for step := range 30 {
		scaleLR.Call(sched.Decay(0.1, step), x) // want `static argument lr takes a new value on every iteration`
	}
	for n := range 300 {
		power.Call(sched.NextPow2(n), x) // at most 11 values (1 … 1024): a few compiles
	}
	for n := range 300 {
		power.Call(sched.Grow(n), x) // doubled until it holds n: a few compiles however large n grows
	}
}
