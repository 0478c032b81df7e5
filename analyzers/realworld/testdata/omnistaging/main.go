// Command omnistaging reads a global array inside a traced function: the
// sum is staged like every jit operation in a trace, so .Item() on it
// fails, while a constant scalar stays concrete.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

var weights = jit.FromSlice([]float32{0.2, 0.3, 0.5})

func normalise(x jit.Array) jit.Array {
	two := jit.Scalar(float32(2)).Item()
	total := weights.Sum().Item() // want tracedbool
	return x.Mul(weights).Mul(two / total)
}

func main() {
	fmt.Println("eager total", weights.Sum().Item())
	fmt.Println(jit.Jit(normalise).Call(jit.Ones(jit.Float32, 3)))
}
