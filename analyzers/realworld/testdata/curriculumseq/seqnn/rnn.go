// Package seqnn is a small stacked Elman RNN for sequence regression.
package seqnn

import (
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// Cell is one recurrent layer: h' = tanh(x Wx + h Wh + B).
type Cell struct {
	Wx, Wh, B jit.Array
}

// Net is a stack of cells and a linear head on the last layer.
type Net struct {
	Cells []Cell
	Head  jit.Array // [hidden]
}

// New builds a net with the given number of layers.
func New(rng *rand.Rand, in, hidden, layers int) Net {
	var n Net
	for l := 0; l < layers; l++ {
		d := hidden
		if l == 0 {
			d = in
		}
		n.Cells = append(n.Cells, Cell{Wx: normal(rng, 0.5, d, hidden), Wh: normal(rng, 0.3, hidden, hidden), B: jit.Zeros(jit.Float32, hidden)})
	}
	n.Head = normal(rng, 0.5, hidden)
	return n
}

func normal(rng *rand.Rand, scale float64, shape ...int) jit.Array {
	size := 1
	for _, s := range shape {
		size *= s
	}
	data := make([]float32, size)
	for k := range data {
		data[k] = float32(rng.NormFloat64() * scale)
	}
	return jit.FromSlice(data, shape...)
}

// Step advances one cell by one time step.
func (c Cell) Step(h, x jit.Array) jit.Array {
	return x.MatMul(c.Wx).Add(h.MatMul(c.Wh)).Add(c.B).Tanh()
}

// RunScan runs every layer over xs [T, in] with jit.Scan and returns the
// per-step predictions [T].
func RunScan(n Net, xs jit.Array) jit.Array {
	hidden := n.Head.Shape()[0]
	for _, c := range n.Cells {
		cell := c
		_, xs = jit.Scan(func(h, x jit.Array) (jit.Array, jit.Array) {
			h = cell.Step(h, x)
			return h, h
		}, jit.Zeros(jit.Float32, hidden), xs)
	}
	return xs.MatMul(n.Head)
}

// RunUnrolled is RunScan written as Go loops over time (easier to debug).
func RunUnrolled(n Net, xs jit.Array) jit.Array {
	hidden := n.Head.Shape()[0]
	T, d := xs.Shape()[0], xs.Shape()[1]
	outs := make([]jit.Array, T)
	for t := 0; t < T; t++ {
		outs[t] = xs.Slice([]int{t, 0}, []int{t + 1, d}).Reshape(d)
	}
	for _, c := range n.Cells {
		h := jit.Zeros(jit.Float32, hidden)
		for t := 0; t < T; t++ {
			h = c.Step(h, outs[t])
			outs[t] = h
		}
	}
	preds := make([]jit.Array, T)
	for t := range outs {
		preds[t] = outs[t].MatMul(n.Head).Reshape(1)
	}
	return jit.Concatenate(0, preds...)
}
