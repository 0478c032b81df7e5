// Package lmkit holds the layers and sampling helpers shared by the
// language-model experiments (ported from the team's Flax/NumPy utilities).
package lmkit

import (
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// Dense is an affine layer y = x W + b.
type Dense struct {
	W, B jit.Array
}

// MLP is a stack of Dense layers with tanh between them.
type MLP struct {
	Layers []Dense
}

// NewMLP initialises an MLP with the given widths (LeCun normal).
func NewMLP(rng *rand.Rand, widths ...int) MLP {
	var m MLP
	for i := 0; i+1 < len(widths); i++ {
		in, out := widths[i], widths[i+1]
		w := make([]float32, in*out)
		s := 1 / math.Sqrt(float64(in))
		for j := range w {
			w[j] = float32(rng.NormFloat64() * s)
		}
		m.Layers = append(m.Layers, Dense{W: jit.FromSlice(w, in, out), B: jit.Zeros(jit.Float32, out)})
	}
	return m
}

// Apply runs x through every layer; the last one has no activation.
func (m MLP) Apply(x jit.Array) jit.Array {
	for i, l := range m.Layers {
		x = x.MatMul(l.W).Add(l.B)
		if i+1 < len(m.Layers) {
			x = x.Tanh()
		}
	}
	return x
}

// OneHot returns the f32 one-hot encoding of tok (any shape) over n classes.
func OneHot(tok jit.Array, n int) jit.Array {
	return tok.Reshape(append(tok.Shape(), 1)...).Eq(jit.Arange(n, jit.Int32)).Astype(jit.Float32)
}
