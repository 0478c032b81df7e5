// Command checkpoint trains with a list of callbacks, Keras-style. The
// first trainer fires its callbacks from inside the jitted update (they
// run once, while tracing, and its step counter counts traces); the
// second fires them from the host loop after each jitted call.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type callback func(step int)

var saved []int

func checkpointEvery(n int) callback {
	return func(step int) {
		if step%n == 0 {
			saved = append(saved, step)        // want traceeffect
			fmt.Println("checkpoint at", step) // want traceeffect
		}
	}
}

func progressBar(total int) callback {
	return func(step int) {
		fmt.Printf("\rstep %d/%d", step, total)
		if step == total {
			fmt.Println()
		}
	}
}

type trainer struct {
	lr        float64
	step      int
	callbacks []callback
}

// update takes one SGD step and fires the callbacks.
func (t *trainer) update(w, x jit.Array) jit.Array {
	w = w.Sub(x.Mul(w).Mul(t.lr))
	t.step++ // want traceeffect
	for _, cb := range t.callbacks {
		cb(t.step)
	}
	return w
}

// sgd is the same step without the bookkeeping.
func sgd(w, x jit.Array) jit.Array { return w.Sub(x.Mul(w).Mul(0.1)) }

func main() {
	x := jit.Full(0.5, jit.Float32, 8)

	tr := &trainer{lr: 0.1, callbacks: []callback{checkpointEvery(1)}}
	upd := jit.Jit(tr.update)
	w := jit.Ones(jit.Float32, 8)
	for range 6 {
		w = upd.Call(w, x)
	}
	fmt.Println("traced trainer: step", tr.step, "checkpoints", saved)

	hooks := []callback{progressBar(6)}
	step := jit.Jit(sgd)
	w = jit.Ones(jit.Float32, 8)
	for s := 1; s <= 6; s++ {
		w = step.Call(w, x)
		for _, cb := range hooks {
			cb(s)
		}
	}
	fmt.Println("host callbacks: w", w.Sum().Item())
}
