// Package mlp is a small multilayer perceptron with pytree helpers and
// in-graph gradient accumulation.
package mlp

import (
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

type Layer struct {
	W, B jit.Array
}

// MLP is a stack of dense layers; tanh between them, linear output.
type MLP struct {
	Layers []Layer
}

// New builds an MLP with len(sizes)-1 layers.
func New(rng *rand.Rand, sizes ...int) MLP {
	var m MLP
	for k := 0; k+1 < len(sizes); k++ {
		in, out := sizes[k], sizes[k+1]
		w := make([]float32, in*out)
		for i := range w {
			w[i] = float32(rng.NormFloat64() / float64(in))
		}
		m.Layers = append(m.Layers, Layer{W: jit.FromSlice(w, in, out), B: jit.Zeros(jit.Float32, out)})
	}
	return m
}

func Forward(p MLP, x jit.Array) jit.Array {
	for i, l := range p.Layers {
		x = x.MatMul(l.W).Add(l.B)
		if i < len(p.Layers)-1 {
			x = x.Tanh()
		}
	}
	return x
}

// Loss is the mean squared error of a batch x [B, d] against y [B].
func Loss(p MLP, x, y jit.Array) jit.Array {
	d := Forward(p, x).Reshape(y.Shape()...).Sub(y)
	return d.Mul(d).Mean()
}

var LossGrad = jit.ValueAndGrad[func(MLP, jit.Array, jit.Array) (jit.Array, MLP)](Loss)

// Map applies f leaf by leaf to a and b.
func Map(a, b MLP, f func(x, y jit.Array) jit.Array) MLP {
	out := MLP{Layers: make([]Layer, len(a.Layers))}
	for k := range a.Layers {
		out.Layers[k] = Layer{W: f(a.Layers[k].W, b.Layers[k].W), B: f(a.Layers[k].B, b.Layers[k].B)}
	}
	return out
}

// Scale multiplies every leaf by s (a Go number or a scalar Array).
func Scale(a MLP, s any) MLP {
	return Map(a, a, func(x, _ jit.Array) jit.Array { return x.Mul(s) })
}

// SqNorm is the squared global L2 norm.
func SqNorm(a MLP) jit.Array {
	total := jit.Zeros(jit.Float32)
	for _, l := range a.Layers {
		total = total.Add(l.W.Mul(l.W).Sum()).Add(l.B.Mul(l.B).Sum())
	}
	return total
}

// AccumulateGrads splits the batch into micro equal micro-batches and
// averages their losses and gradients.
func AccumulateGrads(p MLP, x, y jit.Array, micro int) (jit.Array, MLP) {
	n, d := x.Shape()[0], x.Shape()[1]
	m := n / micro
	loss := jit.Zeros(jit.Float32)
	var g MLP
	for k := 0; k < micro; k++ {
		l, gk := LossGrad(p, x.Slice([]int{k * m, 0}, []int{(k + 1) * m, d}), y.Slice([]int{k * m}, []int{(k + 1) * m}))
		if k == 0 {
			g = gk
		} else {
			g = Map(g, gk, func(a, b jit.Array) jit.Array { return a.Add(b) })
		}
		loss = loss.Add(l)
	}
	return loss.Div(micro), Scale(g, 1.0/float64(micro))
}
