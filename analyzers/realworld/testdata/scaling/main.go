// Command scaling benchmarks a kernel at doubling problem sizes, then at
// one size with a dropout rate that changes per call.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func kernel(x jit.Array) jit.Array { return x.Mul(x).Sum().Sqrt() }

func dropout(x jit.Array, rate float64) jit.Array { return x.Mul(1 - rate) }

func main() {
	f := jit.Jit(kernel)
	for n := 4; n <= 128; n *= 2 {
		fmt.Println(n, f.Call(jit.Ones(jit.Float32, n)).Item()) // want shapechurn
	}
	d := jit.Jit(dropout, jit.StaticArgnums(1))
	x := jit.Ones(jit.Float32, 16)
	for step := range 6 {
		rate := 0.5 / float64(step+1)
		x = d.Call(x, rate) // want staticargs
	}
	fmt.Println(x)
}
