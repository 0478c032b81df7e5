// Command argmax picks the best class and looks up its label: eagerly
// after the jitted scoring, then inside a jitted function with the index
// as a Go int.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

var labels = []string{"cat", "dog", "bird"}

var prior = jit.FromSlice([]float32{0.1, 0.7, 0.2})

func scores(x jit.Array) jit.Array { return x.Mul(prior).Add(0.01) }

func best(s jit.Array) jit.Array {
	i := jit.Arange(3, jit.Float32).Mul(s.Eq(s.MaxReduce()).Astype(jit.Float32)).Sum()
	return i.Astype(jit.Int32)
}

// pick weights the best score by its class index, read as a Go int.
func pick(x jit.Array) jit.Array {
	s := scores(x)
	i := best(s).Int() // want tracedbool
	return s.Mul(float64(i + 1))
}

func main() {
	f, b := jit.Jit(scores), jit.Jit(best)
	for _, v := range []float32{1, 2, 3} {
		s := f.Call(jit.Full(float64(v), jit.Float32, 3))
		fmt.Println(labels[b.Call(s).Int()])
	}
	fmt.Println(jit.Jit(pick).Call(jit.Ones(jit.Float32, 3)))
}
