// Command mlp trains a two-layer perceptron with SGD on a toy regression
// problem, the way a JAX tutorial's training loop is ported.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

type params struct {
	W1, B1, W2, B2 jit.Array
}

var stepCount int

func forward(p params, x jit.Array) jit.Array {
	h := x.MatMul(p.W1).Add(p.B1).Tanh()
	return h.MatMul(p.W2).Add(p.B2)
}

func loss(p params, x, y jit.Array) jit.Array {
	d := forward(p, x).Sub(y)
	return d.Mul(d).Mean()
}

// sgd takes one hand-derived gradient step on the output layer.
func sgd(p params, x, y jit.Array, lr float64) (params, jit.Array) {
	h := x.MatMul(p.W1).Add(p.B1).Tanh()
	pred := h.MatMul(p.W2).Add(p.B2)
	g := pred.Sub(y).Mul(2.0 / 32)
	stepCount++ // want traceeffect
	p.W2 = p.W2.Sub(h.Transpose().MatMul(g).Mul(lr))
	p.B2 = p.B2.Sub(g.Sum().Mul(lr))
	return p, loss(p, x, y)
}

func data(n int, seed float64) (jit.Array, jit.Array) {
	xs := make([]float32, n*4)
	ys := make([]float32, n)
	for i := range n {
		s := 0.0
		for j := range 4 {
			v := math.Sin(seed + float64(i*4+j))
			xs[i*4+j] = float32(v)
			s += v
		}
		ys[i] = float32(s / 4)
	}
	return jit.FromSlice(xs, n, 4), jit.FromSlice(ys, n, 1)
}

func main() {
	p := params{
		W1: jit.Full(0.1, jit.Float32, 4, 8), B1: jit.Zeros(jit.Float32, 8),
		W2: jit.Full(0.05, jit.Float32, 8, 1), B2: jit.Zeros(jit.Float32, 1),
	}
	step := jit.Jit(sgd, jit.StaticArgnums(3))
	for epoch := range 5 {
		for batch := range 4 {
			x, y := data(32, float64(epoch*4+batch))
			var l jit.Array
			p, l = step.Call(p, x, y, 0.1)
			if batch == 3 {
				fmt.Printf("epoch %d loss %.4f\n", epoch, l.Item())
			}
		}
	}
	fmt.Println("traced steps:", stepCount, "compiles:", step.Stats().Compiles)
}
