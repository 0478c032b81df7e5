package a

import "github.com/jitlint/jitlint/jit"

// A method value of a receiver that a loop updates — the function's
// parameter, reassigned on each epoch — is a new function on every
// iteration: jitting it there compiles on every iteration, and cannot move
// before the loop; the method expression jitted once, with the receiver as
// an argument, compiles once. A method value jitted in a loop is a new
// wrapper on every iteration, whatever its receiver: each compiles again.

type lrModel struct{ W jit.Array }

func (m lrModel) Forward(x jit.Array) jit.Array { return x.MatMul(m.W) }

func (m lrModel) step() lrModel { return lrModel{W: m.W.Mul(0.9)} }

func loopReceivers(m lrModel, x jit.Array) {
	for epoch := 0; epoch < 4; epoch++ {
		m = m.step()
		fwd := jit.Jit(m.Forward) // want `jit.Jit is called on every iteration of this loop, on a function made of the loop's values: .* jit the method expression`
		fwd.Call(x)
	}
	for epoch := 0; epoch < 4; epoch++ {
		fwd := jit.Jit(lrModel{W: x}.Forward) // want `jit.Jit is called on every iteration of this loop: each call makes a new wrapper`
		fwd.Call(x)
	}
	fixed := m
	for epoch := 0; epoch < 4; epoch++ {
		fwd := jit.Jit(fixed.Forward) // want `jit.Jit is called on every iteration of this loop: each call makes a new wrapper`
		fwd.Call(x)
	}
	forward := jit.Jit(lrModel.Forward)
	for epoch := 0; epoch < 4; epoch++ {
		m = m.step()
		forward.Call(m, x)
	}
}
