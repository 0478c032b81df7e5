// Command sweep runs a hyper-parameter sweep: first jitting the training
// step anew for every setting, then with a table of wrappers built once.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func trainStep(w, x jit.Array) jit.Array {
	return w.Sub(x.Mul(w).Mul(0.1))
}

func scaledStep(lr float64) func(w, x jit.Array) jit.Array {
	return func(w, x jit.Array) jit.Array { return w.Sub(x.Mul(w).Mul(lr)) }
}

func main() {
	x := jit.Full(0.5, jit.Float32, 8)
	for trial := range 4 {
		step := jit.Jit(trainStep) // a named function: its wrappers share one cache
		w := jit.Ones(jit.Float32, 8)
		for range 3 {
			w = step.Call(w, x)
		}
		fmt.Println("trial", trial, w.Sum().Item())
	}

	// The fix: one wrapper per setting, built once, each used many times.
	lrs := []float64{0.1, 0.01, 0.001}
	steps := make([]*jit.Func[func(w, x jit.Array) jit.Array], len(lrs))
	for i, lr := range lrs {
		steps[i] = jit.Jit(scaledStep(lr))
	}
	for i, step := range steps {
		w := jit.Ones(jit.Float32, 8)
		for range 10 {
			w = step.Call(w, x)
		}
		fmt.Println("lr", lrs[i], w.Sum().Item())
	}
}
