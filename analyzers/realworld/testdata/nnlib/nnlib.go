// Package nnlib is a small neural-network toolkit on top of jit: dense
// layers, an MLP, a vanilla RNN cell, dot-product attention, losses and
// plain SGD. Everything here is ordinary traceable Go, so callers can jit
// the functions directly or call them from their own jitted code.
package nnlib

import (
	"math"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

// Params is a flat, named parameter set (a pytree of arrays).
type Params map[string]jit.Array

// Rand is a tiny deterministic generator for weight init.
type Rand struct{ state uint64 }

// NewRand returns a generator seeded with seed.
func NewRand(seed uint64) *Rand { return &Rand{state: seed*6364136223846793005 + 1442695040888963407} }

// Normal returns n approximately standard-normal samples scaled by std.
func (r *Rand) Normal(n int, std float64) []float32 {
	out := make([]float32, n)
	for i := range out {
		s := 0.0
		for k := 0; k < 4; k++ {
			r.state = r.state*6364136223846793005 + 1442695040888963407
			s += float64(r.state>>11) / float64(1<<53)
		}
		out[i] = float32((s - 2) * math.Sqrt(3) * std)
	}
	return out
}

// Dense is an affine layer y = x W + b.
type Dense struct {
	W, B jit.Array
}

// NewDense initialises a Dense layer with Glorot-scaled weights.
func NewDense(r *Rand, in, out int) Dense {
	std := math.Sqrt(2.0 / float64(in+out))
	return Dense{W: jit.FromSlice(r.Normal(in*out, std), in, out), B: jit.Zeros(jit.Float32, out)}
}

// Apply runs the layer on x (any leading batch dimensions).
func (d Dense) Apply(x jit.Array) jit.Array { return x.MatMul(d.W).Add(d.B) }

// MLP is a stack of dense layers with tanh between them.
type MLP struct {
	Layers []Dense
}

// NewMLP builds an MLP with the given layer sizes.
func NewMLP(r *Rand, sizes ...int) MLP {
	var m MLP
	for i := 0; i+1 < len(sizes); i++ {
		m.Layers = append(m.Layers, NewDense(r, sizes[i], sizes[i+1]))
	}
	return m
}

// Forward runs the MLP.
func Forward(m MLP, x jit.Array) jit.Array {
	for i, l := range m.Layers {
		x = l.Apply(x)
		if i+1 < len(m.Layers) {
			x = x.Tanh()
		}
	}
	return x
}

// Residual applies the same dense block depth times with skip connections
// (a weight-tied deep network, as in a DEQ-style unrolled solver).
func Residual(d Dense, x jit.Array, depth int) jit.Array {
	for i := 0; i < depth; i++ {
		x = x.Add(d.Apply(x).Tanh().Mul(0.1))
	}
	return x
}

// MSE is the mean squared error.
func MSE(pred, target jit.Array) jit.Array { return pred.Sub(target).Pow(2).Mean() }

// Softmax normalises along the last axis.
func Softmax(x jit.Array) jit.Array {
	last := x.Ndim() - 1
	keep := x.Shape()
	keep[last] = 1
	m := StopGradient(x.MaxReduce(last)).Reshape(keep...)
	e := x.Sub(m).Exp()
	return e.Div(e.Sum(last).Reshape(keep...))
}

// StopGradient is jit.StopGradient, re-exported for model code.
func StopGradient(x jit.Array) jit.Array { return jit.StopGradient(x) }

// Attend is single-query scaled dot-product attention: q [D], k and v
// [T, D], mask [T] with 1 for valid positions.
func Attend(q, k, v, mask jit.Array) jit.Array {
	d := float64(q.Shape()[0])
	scores := k.MatMul(q).Mul(1 / math.Sqrt(d))
	scores = jit.Where(mask.Gt(0), scores, -1e9)
	return Softmax(scores).MatMul(v)
}

// Cell is a vanilla (Elman) RNN cell.
type Cell struct {
	Wx, Wh, B jit.Array
}

// NewCell initialises a cell mapping in features to hidden units.
func NewCell(r *Rand, in, hidden int) Cell {
	return Cell{
		Wx: jit.FromSlice(r.Normal(in*hidden, 1/math.Sqrt(float64(in))), in, hidden),
		Wh: jit.FromSlice(r.Normal(hidden*hidden, 0.5/math.Sqrt(float64(hidden))), hidden, hidden),
		B:  jit.Zeros(jit.Float32, hidden),
	}
}

// Step advances the hidden state by one input vector.
func Step(c Cell, h, x jit.Array) jit.Array {
	return x.MatMul(c.Wx).Add(h.MatMul(c.Wh)).Add(c.B).Tanh()
}

// Unroll runs the cell over the first steps rows of xs [T, in] and returns
// the final state and every intermediate state.
func Unroll(c Cell, h, xs jit.Array, steps int) (jit.Array, []jit.Array) {
	in := xs.Shape()[1]
	states := make([]jit.Array, 0, steps)
	for t := 0; t < steps; t++ {
		x := xs.Slice([]int{t, 0}, []int{t + 1, in}).Reshape(in)
		h = Step(c, h, x)
		states = append(states, h)
	}
	return h, states
}

// ScanRNN runs the cell over every row of xs with jit.Scan and returns the
// final state and the stacked states [T, hidden].
func ScanRNN(c Cell, h, xs jit.Array) (jit.Array, jit.Array) {
	return jit.Scan(func(h, x jit.Array) (jit.Array, jit.Array) {
		h = Step(c, h, x)
		return h, h
	}, h, xs)
}

// Keys returns the parameter names in a fixed order.
func (p Params) Keys() []string {
	ks := make([]string, 0, len(p))
	for k := range p {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// SGD returns p - lr * g for every parameter.
func SGD(p, g Params, lr jit.Array) Params {
	out := Params{}
	for _, k := range p.Keys() {
		out[k] = p[k].Sub(g[k].Mul(lr))
	}
	return out
}
