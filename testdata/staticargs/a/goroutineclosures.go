package a

import (
	"sync"

	"github.com/jitlint/jitlint/jit"
)

// A closure started on each iteration of a loop (a goroutine per
// request) calls the wrapper it captures: the wrapper is the one that its
// MakeClosure binds, and a static argument made of the loop's values is a
// new value per iteration.

func gcSample(logits jit.Array, temperature float64) jit.Array { return logits.Div(temperature) }

func gcServe(logits jit.Array, temps []float64) {
	sample := jit.Jit(gcSample, jit.StaticArgnums(1))
	var wg sync.WaitGroup
	for _, t := range []float64{0.5, 0.7, 0.9, 1.1, 1.3} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sample.Call(logits, t) // want `static argument temperature takes a new value on every iteration: each call traces and compiles again \(5 iterations → 5 compiles\)`
		}()
	}
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sample.Call(logits, 1.0) // not reported: one value
		}()
	}
	wg.Wait()
}
