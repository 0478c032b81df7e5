// Command batchnorm normalises batches with a training flag (a static
// argument that alternates between two values) and a config struct whose
// epoch field is static.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func batchNorm(x jit.Array, training bool, runMean jit.Array) jit.Array {
	mean := runMean
	if training {
		mean = x.Mean(0)
	}
	return x.Sub(mean)
}

type config struct {
	Scale jit.Array
	Epoch int `jit:"static"`
}

// scaled decays its scale with the epoch: a new epoch is a new static value.
func scaled(c config, x jit.Array) jit.Array {
	return x.Mul(c.Scale).Mul(1 / float64(1+c.Epoch))
}

func main() {
	x := jit.Full(2, jit.Float32, 16, 4)
	mean := jit.Zeros(jit.Float32, 4)
	bn := jit.Jit(batchNorm, jit.StaticArgnums(1))
	for i := range 20 {
		y := bn.Call(x, i%2 == 0, mean)
		if i == 19 {
			fmt.Println(y.Sum())
		}
	}
	sc := jit.Jit(scaled)
	for epoch := range 6 {
		y := sc.Call(config{Scale: jit.Scalar(float32(0.5)), Epoch: epoch}, x) // want staticargs
		fmt.Println(epoch, y.Sum().Item())
	}
}
