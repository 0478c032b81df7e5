// Package nn holds the layers of the layerlib model: dense layers, a
// residual tower, a polynomial feature basis and normalisation helpers.
package nn

import (
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Dense is y = x W + b.
type Dense struct {
	W, B jit.Array
}

// NewDense returns a deterministic, Glorot-scaled dense layer.
func NewDense(in, out int, seed float64) Dense {
	scale := math.Sqrt(2 / float64(in+out))
	w := jit.Arange(in*out, jit.Float32).Mul(0.7713).Add(seed).Sin().Mul(scale).Reshape(in, out)
	return Dense{W: w, B: jit.Zeros(jit.Float32, out)}
}

// Apply runs the layer on a batch x of shape [n, in].
func (d Dense) Apply(x jit.Array) jit.Array {
	return x.MatMul(d.W).Add(d.B)
}

// MLP is a stack of dense layers with one activation between them.
type MLP struct {
	Layers []Dense
	Act    string `jit:"static"`
}

// NewMLP builds an MLP with the given layer widths.
func NewMLP(act string, widths ...int) MLP {
	m := MLP{Act: act}
	for i := 0; i+1 < len(widths); i++ {
		m.Layers = append(m.Layers, NewDense(widths[i], widths[i+1], float64(i)))
	}
	return m
}

func activate(x jit.Array, act string) jit.Array {
	switch act {
	case "tanh":
		return x.Tanh()
	case "softplus":
		return jit.Softplus(x)
	default:
		return jit.Relu(x)
	}
}

// Forward runs the network.
func (m MLP) Forward(x jit.Array) jit.Array {
	h := x
	for i, l := range m.Layers {
		h = l.Apply(h)
		if i < len(m.Layers)-1 {
			h = activate(h, m.Act)
		}
	}
	return h
}

// Predict is Forward as a plain function, for jit.Jit.
func Predict(m MLP, x jit.Array) jit.Array { return m.Forward(x) }

// MSE is the mean squared error of the network on (x, y).
func MSE(m MLP, x, y jit.Array) jit.Array {
	d := m.Forward(x).Sub(y)
	return d.Mul(d).Mean()
}

// SGD returns m - lr*g, layer by layer.
func SGD(m, g MLP, lr float64) MLP {
	out := MLP{Act: m.Act, Layers: make([]Dense, len(m.Layers))}
	for i := range m.Layers {
		out.Layers[i] = Dense{
			W: m.Layers[i].W.Sub(g.Layers[i].W.Mul(lr)),
			B: m.Layers[i].B.Sub(g.Layers[i].B.Mul(lr)),
		}
	}
	return out
}

// ResidualTower applies depth weight-tied residual blocks h += tanh(h W)/depth.
func ResidualTower(x, w jit.Array, depth int) jit.Array {
	h := x
	for i := 0; i < depth; i++ { // want unrolledloop
		h = h.Add(h.MatMul(w).Tanh().Mul(1 / float64(depth)))
	}
	return h
}

// PolyBasis expands a vector x of shape [n] into the columns x, x^2, ..., x^degree.
func PolyBasis(x jit.Array, degree int) jit.Array {
	n := x.Shape()[0]
	cols := make([]jit.Array, 0, degree)
	p := x
	for d := 0; d < degree; d++ {
		cols = append(cols, p.Reshape(n, 1))
		p = p.Mul(x)
	}
	return jit.Concatenate(1, cols...)
}

// RowNormalize scales every row of x to unit norm without host control flow.
func RowNormalize(x jit.Array) jit.Array {
	n := x.Mul(x).Sum(1).Sqrt().Max(1e-6)
	return x.Div(n.Reshape(x.Shape()[0], 1))
}
