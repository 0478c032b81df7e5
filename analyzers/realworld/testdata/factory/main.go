// Command factory builds step functions with a factory that closes over a
// log buffer and a learning rate.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func makeStep(buf *[]string, lr float64) func(jit.Array) jit.Array {
	return func(w jit.Array) jit.Array {
		*buf = append(*buf, "step") // want traceeffect
		return w.Mul(1 - lr)
	}
}

func makeDecay(lr float64) func(jit.Array) jit.Array {
	return func(w jit.Array) jit.Array { return w.Mul(1 - lr) }
}

func main() {
	var buf []string
	step := jit.Jit(makeStep(&buf, 0.1))
	decay := jit.Jit(makeDecay(0.2))
	w := jit.Ones(jit.Float32, 4)
	for range 6 {
		w = step.Call(w)
		w = decay.Call(w)
	}
	fmt.Println(w, len(buf), "log entries for 6 steps")
}
