// Command trainer runs a fixed number of inner SGD steps inside the jitted
// function, the number given as a static argument; a variant uses
// jit.ForiLoop.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func inner(steps int, w, x jit.Array) jit.Array {
	for i := 0; i < steps; i++ { // want unrolledloop
		w = w.Sub(w.Mul(x).Sub(1).Mul(x).Mul(0.05))
	}
	return w
}

func innerLoop(steps int, w, x jit.Array) jit.Array {
	return jit.ForiLoop(0, steps, func(i jit.Array, w jit.Array) jit.Array {
		return w.Sub(w.Mul(x).Sub(1).Mul(x).Mul(0.05))
	}, w)
}

func main() {
	x := jit.FromSlice([]float32{0.5, 1, 2})
	f := jit.Jit(inner, jit.StaticArgnums(0))
	g := jit.Jit(innerLoop, jit.StaticArgnums(0))
	w, v := jit.Zeros(jit.Float32, 3), jit.Zeros(jit.Float32, 3)
	for range 3 {
		w = f.Call(64, w, x)
		v = g.Call(64, v, x)
	}
	fmt.Println(w, v)
}
