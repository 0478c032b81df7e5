// Command rnn runs an Elman RNN over the time steps of a sequence: the
// steps are a Go loop inside the traced function, the layers too.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type layer struct{ Wx, Wh jit.Array }

// run unrolls the time loop: one cell per step of the sequence, and the
// sequences the program feeds have 48 steps.
func run(layers []layer, xs []jit.Array) jit.Array {
	h := jit.Zeros(jit.Float32, 1, 8)
	for _, l := range layers {
		for _, x := range xs { // want unrolledloop
			h = x.MatMul(l.Wx).Add(h.MatMul(l.Wh)).Tanh()
		}
	}
	return h.Sum()
}

func sequence(n int) []jit.Array {
	xs := make([]jit.Array, n)
	for t := range n {
		xs[t] = jit.Full(float64(t)/float64(n), jit.Float32, 1, 8)
	}
	return xs
}

func main() {
	layers := []layer{
		{Wx: jit.Full(0.01, jit.Float32, 8, 8), Wh: jit.Full(0.02, jit.Float32, 8, 8)},
		{Wx: jit.Full(0.03, jit.Float32, 8, 8), Wh: jit.Full(0.01, jit.Float32, 8, 8)},
	}
	f := jit.Jit(run)
	xs := sequence(48)
	for range 3 {
		fmt.Println(f.Call(layers, xs).Item())
	}
}
