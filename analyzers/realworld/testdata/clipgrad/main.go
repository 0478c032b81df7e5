// Command clipgrad clips gradients by their norm before the update; the
// clipping is a Go if on the norm inside the jitted step.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const maxNorm = 1.0

func grad(w, x jit.Array) jit.Array { return w.Mul(x).Sub(1).Mul(x) }

// clippedStep scales the gradient down when its norm is too large.
func clippedStep(w, x jit.Array) jit.Array {
	g := grad(w, x)
	norm := g.Pow(2).Sum().Sqrt()
	if norm.Item() > maxNorm { // want tracedbool
		g = g.Div(norm)
	}
	return w.Sub(g.Mul(0.1))
}

// whereStep does the same with jit.Where.
func whereStep(w, x jit.Array) jit.Array {
	g := grad(w, x)
	norm := g.Pow(2).Sum().Sqrt()
	g = jit.Where(norm.Gt(maxNorm), g.Div(norm), g)
	return w.Sub(g.Mul(0.1))
}

func main() {
	w, x := jit.Zeros(jit.Float32, 4), jit.FromSlice([]float32{1, 2, 3, 4})
	f := jit.Jit(whereStep)
	for range 5 {
		w = f.Call(w, x)
	}
	fmt.Println(w, w.Pow(2).Sum().Sqrt().Item())
	fmt.Println(jit.Jit(clippedStep).Call(w, x))
}
