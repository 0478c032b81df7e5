package a

import "github.com/jitlint/jitlint/jit"

// A wrapper made on each epoch and called for each of the epoch's
// batches compiles once per epoch: fewer compiles than every other call
// when an epoch has more than two batches. Called once or twice per epoch,
// it compiles for every other call or more.

func ilEpochs(x jit.Array) jit.Array {
	for epoch := 0; epoch < 4; epoch++ {
		lr := 0.1 / float64(epoch+1)
		step := jit.Jit(func(p jit.Array) jit.Array { return p.Mul(lr) }) // not reported: six calls per compile
		for b := 0; b < 6; b++ {
			x = step.Call(x)
		}
	}
	for epoch := 0; epoch < 4; epoch++ {
		lr := 0.1 / float64(epoch+1)
		step := jit.Jit(func(p jit.Array) jit.Array { return p.Mul(lr) }) // want `jit.Jit is called on every iteration of this loop, on a function made of the loop's values`
		for b := 0; b < 2; b++ {
			x = step.Call(x)
		}
	}
	return x
}
