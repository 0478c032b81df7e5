// Package gnn holds the graph layers used by gnnmessage: a stack of
// message-passing layers, weight-free diffusion and adjacency normalization.
package gnn

import (
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// Layer is one message-passing layer: h' = relu(A h W + B).
type Layer struct {
	W jit.Array
	B jit.Array
}

// Model is a stack of layers and a linear graph-level readout.
type Model struct {
	Layers []Layer
	Out    jit.Array
}

// Init makes a model with len(dims)-1 layers.
func Init(rng *rand.Rand, dims []int) Model {
	var m Model
	for k := 0; k+1 < len(dims); k++ {
		m.Layers = append(m.Layers, Layer{W: glorot(rng, dims[k], dims[k+1]), B: jit.Zeros(jit.Float32, dims[k+1])})
	}
	last := dims[len(dims)-1]
	m.Out = glorot(rng, last, 1).Reshape(last)
	return m
}

func glorot(rng *rand.Rand, in, out int) jit.Array {
	data := make([]float32, in*out)
	scale := 1.0 / float64(in+out)
	for k := range data {
		data[k] = float32(rng.NormFloat64() * 2 * scale)
	}
	return jit.FromSlice(data, in, out)
}

// Forward runs every layer of m over the normalized adjacency adj.
func Forward(m Model, adj, h jit.Array) jit.Array {
	for _, l := range m.Layers {
		h = jit.Relu(adj.MatMul(h).MatMul(l.W).Add(l.B))
	}
	return h
}

// Diffuse runs rounds of personalized-PageRank propagation (APPNP):
// h <- (1-alpha) A h + alpha h0.
func Diffuse(adj, h jit.Array, alpha float64, rounds int) jit.Array {
	h0 := h.Mul(alpha)
	for r := 0; r < rounds; r++ {
		h = adj.MatMul(h).Mul(1 - alpha).Add(h0)
	}
	return h
}

// NormalizeAdj returns D^-1/2 (A + I) D^-1/2 for a raw 0/1 adjacency.
func NormalizeAdj(adj jit.Array) jit.Array {
	if adj.MinReduce().Item() < 0 {
		panic("gnn: negative edge weight")
	}
	n := adj.Shape()[0]
	ids := jit.Arange(n, jit.Int32)
	eye := jit.Where(ids.Reshape(n, 1).Eq(ids.Reshape(1, n)), 1.0, 0.0).Astype(adj.Dtype())
	a := adj.Add(eye)
	dinv := a.Sum(1).Rsqrt()
	return a.Mul(dinv.Reshape(n, 1)).Mul(dinv.Reshape(1, n))
}

// SGD applies one plain gradient step to every parameter.
func SGD(m, g Model, lr float64) Model {
	out := Model{Out: m.Out.Sub(g.Out.Mul(lr))}
	for k, l := range m.Layers {
		out.Layers = append(out.Layers, Layer{W: l.W.Sub(g.Layers[k].W.Mul(lr)), B: l.B.Sub(g.Layers[k].B.Mul(lr))})
	}
	return out
}
