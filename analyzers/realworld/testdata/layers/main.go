// Command layers stacks layers from another package: a deep residual
// tower unrolled by a Go loop, and a short stack of four.
package main

import (
	"fmt"

	"corpus/nn"

	"github.com/jitlint/jitlint/jit"
)

const depth = 36

func tower(x, w jit.Array) jit.Array {
	for range depth { // want unrolledloop
		x = nn.Residual(x, w)
	}
	return x
}

func short(x jit.Array, ws []jit.Array) jit.Array {
	for _, w := range ws {
		x = nn.Dense(x, w)
	}
	return x
}

func main() {
	x := jit.Full(0.1, jit.Float32, 2, 8)
	w := jit.Full(0.01, jit.Float32, 8, 8)
	ws := []jit.Array{w, w, w, w}
	t := jit.Jit(tower)
	s := jit.Jit(short)
	for range 3 {
		fmt.Println(t.Call(x, w).Sum().Item(), s.Call(x, ws).Sum().Item())
	}
}
