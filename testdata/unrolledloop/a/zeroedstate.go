package a

import "github.com/jitlint/jitlint/jit"

// A local struct starts as its zero value — from an empty literal or a
// var declaration — so a slice field that a loop appends to has as many
// elements as the loop appends.

type zsDense struct{ W jit.Array }

type zsStack struct{ Blocks []zsDense }

// Forward applies every block with a skip connection.
func (s zsStack) Forward(x jit.Array) jit.Array {
	for _, b := range s.Blocks { // want `loop is unrolled into the trace 40 times \(once per element of s.Blocks; the call at zeroedstate.go:\d+ passes 40\)`
		x = x.Add(x.MatMul(b.W).Tanh())
	}
	return x
}

// Shallow applies the blocks of a stack without skips.
func (s zsStack) Shallow(x jit.Array) jit.Array {
	for _, b := range s.Blocks { // want `loop is unrolled into the trace 36 times \(once per element of s.Blocks; the call at zeroedstate.go:\d+ passes 36\)`
		x = x.MatMul(b.W)
	}
	return x
}

func zeroedState(x jit.Array) {
	deep := zsStack{}
	for i := 0; i < 40; i++ {
		deep.Blocks = append(deep.Blocks, zsDense{W: jit.Zeros(jit.Float32, 4, 4)})
	}
	jit.Jit(zsStack.Forward).Call(deep, x)
	var shallow zsStack
	for i := 0; i < 36; i++ {
		shallow.Blocks = append(shallow.Blocks, zsDense{W: jit.Zeros(jit.Float32, 4, 4)})
	}
	jit.Jit(zsStack.Shallow).Call(shallow, x)
}
