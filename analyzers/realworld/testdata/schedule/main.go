// Command schedule trains with a warm-up learning-rate schedule computed
// from the step number inside the jitted step; the mode is a static
// string from a fixed set.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func step(w jit.Array, t int) jit.Array {
	lr := 0.1 * float64(min(t+1, 10)) / 10
	return w.Sub(w.Mul(lr))
}

func run(w jit.Array, mode string) jit.Array {
	if mode == "train" {
		return w.Mul(0.9)
	}
	return w
}

func main() {
	f := jit.Jit(step, jit.StaticArgnums(1))
	w := jit.Ones(jit.Float32, 4)
	for t := 0; t < 12; t++ {
		w = f.Call(w, t) // want staticargs
	}
	g := jit.Jit(run, jit.StaticArgnums(1))
	modes := []string{"train", "eval"}
	for i := 0; i < 20; i++ {
		w = g.Call(w, modes[i%2])
	}
	fmt.Println(w)
}
