// Package valnet is a small board-evaluation network for 3x3 games.
package valnet

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// Cells is the number of board cells the network reads.
const Cells = 9

// Layer is one dense layer.
type Layer struct{ W, B jit.Array }

// Net maps boards [B, Cells] (+1 for the side to move, -1 for the opponent)
// to values in (-1, 1) [B].
type Net struct{ Layers []Layer }

// New returns a randomly initialised network with the given hidden widths.
func New(seed int64, hidden ...int) Net {
	rng := rand.New(rand.NewSource(seed))
	sizes := append(append([]int{Cells}, hidden...), 1)
	var n Net
	for i := 0; i+1 < len(sizes); i++ {
		in, out := sizes[i], sizes[i+1]
		w := make([]float32, in*out)
		for k := range w {
			w[k] = float32(rng.NormFloat64() / math.Sqrt(float64(in)))
		}
		n.Layers = append(n.Layers, Layer{W: jit.FromSlice(w, in, out), B: jit.Zeros(jit.Float32, out)})
	}
	return n
}

// Value evaluates a batch of boards.
func (n Net) Value(boards jit.Array) jit.Array {
	h := boards
	for i, l := range n.Layers {
		h = h.MatMul(l.W).Add(l.B)
		if i < len(n.Layers)-1 {
			h = jit.Relu(h)
		}
	}
	return h.Tanh().Reshape(-1)
}

// Describe prints the layer shapes.
func (n Net) Describe() string {
	s := "valnet"
	for _, l := range n.Layers {
		s += fmt.Sprintf(" %v", l.W.Shape())
	}
	return s
}
