package a

import (
	"fixtures/staticargs/layers"

	"github.com/jitlint/jitlint/jit"
)

// A field of a loop's state that every iteration copies (here through an
// update in another package) keeps the value the loop started with, over
// the loop and the loops around it: a static field of it does not change.

func kfLoss(m layers.MLP, x jit.Array) jit.Array { return x.MatMul(m.W[0]).Sum() }

var kfGrad = jit.Jit(jit.Grad[func(layers.MLP, jit.Array) layers.MLP](kfLoss))

func keptFields(x jit.Array) {
	m := layers.MLP{Act: "tanh", W: []jit.Array{jit.Zeros(jit.Float32, 4, 4)}}
	for epoch := 0; epoch < 4; epoch++ {
		for step := 0; step < 8; step++ {
			g := kfGrad.Call(m, x) // not reported: m.Act is "tanh" throughout
			m = layers.SGD(m, g, 0.1)
		}
	}
	for epoch := 0; epoch < 6; epoch++ {
		m = layers.Retarget(m, epoch)
		g := kfGrad.Call(m, x) // want `static field Act of argument 0 takes a new value on every iteration: each call traces and compiles again \(6 iterations → 6 compiles\)`
		m = layers.SGD(m, g, 0.1)
	}
}
