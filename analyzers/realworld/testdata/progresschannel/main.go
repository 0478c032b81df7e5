// Command progresschannel trains a linear model and reports progress to a
// logger goroutine over a channel: from the training loop on the host, and
// from inside the jitted step.
package main

import (
	"fmt"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

type progress struct {
	step int
	note string
}

var events = make(chan progress, 64)

// step is one gradient step of least squares; it announces itself.
func step(w, x, y jit.Array) jit.Array {
	events <- progress{note: "step traced"} // want traceeffect
	g := x.Transpose().MatMul(x.MatMul(w).Sub(y)).Mul(2.0 / 8)
	return w.Sub(g.Mul(0.05))
}

// scaled doubles its input; the channel it uses is its own.
func scaled(x jit.Array) jit.Array {
	local := make(chan jit.Array, 1)
	local <- x.Mul(2)
	return <-local
}

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	count := 0
	go func() {
		defer wg.Done()
		for range events {
			count++
		}
	}()
	xs := make([]float32, 8*2)
	ys := make([]float32, 8)
	for i := range 8 {
		xs[2*i], xs[2*i+1] = float32(i), 1
		ys[i] = 3*float32(i) + 1
	}
	x, y := jit.FromSlice(xs, 8, 2), jit.FromSlice(ys, 8, 1)
	w := jit.Zeros(jit.Float32, 2, 1)
	train := jit.Jit(step)
	double := jit.Jit(scaled)
	for i := range 20 {
		w = train.Call(w, x, y)
		events <- progress{step: i, note: "host"}
	}
	fmt.Println("w:", w, double.Call(w))
	close(events)
	wg.Wait()
	fmt.Println("events:", count)
}
