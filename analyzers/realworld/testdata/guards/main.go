// Command guards prints values only when not tracing (IsTracer), and
// finally reads token ids as int64s inside a jitted function.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func normalise(x jit.Array) jit.Array {
	y := x.Sub(x.Mean())
	if !y.IsTracer() {
		fmt.Println("mean-free sum:", y.Sum().Item())
	}
	return y
}

func lookup(ids jit.Array) jit.Array {
	total := 0.0
	for _, id := range ids.Astype(jit.Int64).Int64s() { // want tracedbool
		total += float64(id)
	}
	return ids.Mul(total)
}

func main() {
	x := jit.FromSlice([]float32{1, 2, 3, 6})
	normalise(x)
	f := jit.Jit(normalise)
	for range 3 {
		fmt.Println(f.Call(x))
	}
	fmt.Println(jit.Jit(lookup).Call(x))
}
