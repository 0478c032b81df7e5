// Command lrschedule trains a linear regressor with learning-rate
// schedules from a helper package, passed to the jitted update as static
// arguments: a piecewise schedule keyed by the epoch (three values over
// the run: three compiles), an exponential decay evaluated every step
// (a new value, so a new compile, per step), a phase name in a static
// struct field, and the decay passed as an array.
package main

import (
	"fmt"

	"corpus/optim"

	"github.com/jitlint/jitlint/jit"
)

const (
	epochs  = 6
	batches = 5
)

func update(w, x, y jit.Array, lr float64) jit.Array {
	g := x.Transpose(1, 0).MatMul(x.MatMul(w).Sub(y)).Div(float64(x.Shape()[0]))
	return w.Sub(g.Mul(lr))
}

func updateArr(w, x, y, lr jit.Array) jit.Array {
	g := x.Transpose(1, 0).MatMul(x.MatMul(w).Sub(y)).Div(float64(x.Shape()[0]))
	return w.Sub(g.Mul(lr))
}

type stepConfig struct {
	LR    jit.Array
	Phase string `jit:"static"`
}

// phased takes a plain step while exploring and a clipped one after.
func phased(c stepConfig, w, x, y jit.Array) jit.Array {
	w = updateArr(w, x, y, c.LR)
	if c.Phase == "refine" {
		w = w.Max(-1).Min(1)
	}
	return w
}

func batch(i int) (jit.Array, jit.Array) {
	xs := make([]float32, 8*3)
	ys := make([]float32, 8)
	for r := range 8 {
		for c := range 3 {
			xs[r*3+c] = float32((r+c+i)%5) / 5
		}
		ys[r] = xs[r*3] - 0.5*xs[r*3+2]
	}
	return jit.FromSlice(xs, 8, 3), jit.FromSlice(ys, 8, 1)
}

func main() {
	step := jit.Jit(update, jit.StaticArgnums(3))
	w := jit.Zeros(jit.Float32, 3, 1)
	for epoch := range epochs {
		lr := optim.Piecewise(epoch)
		for b := range batches {
			x, y := batch(b)
			w = step.Call(w, x, y, lr)
		}
	}
	fmt.Println("piecewise:", w.Sum().Item(), "compiles", step.Stats().Compiles)

	decay := jit.Jit(update, jit.StaticArgnums(3))
	w = jit.Zeros(jit.Float32, 3, 1)
	for s := range epochs * batches {
		x, y := batch(s % batches)
		w = decay.Call(w, x, y, optim.Exponential(0.1, 0.97, s)) // want staticargs
	}
	fmt.Println("decayed:", w.Sum().Item(), "compiles", decay.Stats().Compiles)

	ph := jit.Jit(phased)
	arr := jit.Jit(updateArr)
	w = jit.Zeros(jit.Float32, 3, 1)
	for s := range epochs * batches {
		x, y := batch(s % batches)
		lr := jit.Scalar(float32(optim.Exponential(0.1, 0.97, s)))
		w = ph.Call(stepConfig{LR: lr, Phase: optim.Phase(s/batches, epochs)}, w, x, y)
		w = arr.Call(w, x, y, lr)
	}
	fmt.Println("phased:", w.Sum().Item(), "compiles", ph.Stats().Compiles, arr.Stats().Compiles)
}
