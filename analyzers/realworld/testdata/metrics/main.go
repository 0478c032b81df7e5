// Command metrics instruments a jitted function the way one instruments Go
// code: a call counter, a timer, an atomic hit count, a log line.
package main

import (
	"log"
	"sync/atomic"
	"time"

	"github.com/jitlint/jitlint/jit"
)

var (
	calls   int
	hits    atomic.Int64
	elapsed time.Duration
	served  int64
)

func predict(x jit.Array) jit.Array {
	calls++             // want traceeffect
	start := time.Now() // want traceeffect
	hits.Add(1)         // want traceeffect
	y := x.Mul(2).Add(1).Tanh()
	elapsed += time.Since(start) // want traceeffect
	return y
}

func main() {
	f := jit.Jit(predict)
	x := jit.Full(0.5, jit.Float32, 16)
	for i := range 10 {
		y := f.Call(x)
		atomic.AddInt64(&served, 1)
		if i%5 == 4 {
			log.Printf("served %d, sum %.3f", atomic.LoadInt64(&served), y.Sum().Item())
		}
	}
	log.Printf("calls counted: %d (of 10), hits %d, compiles %d", calls, hits.Load(), f.Stats().Compiles)
}
