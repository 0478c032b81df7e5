// Command spiralmlp trains a small multi-layer perceptron on the classic
// two-arm spiral. The model is a struct of dense layers with a sampling
// temperature; its forward pass, loss, accuracy and sampler are methods.
// During training it reports the accuracy per epoch; afterwards it prints
// the logits of a few probe points and samples class labels for them at the
// model's temperature.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

type Dense struct {
	W, B jit.Array
}

type MLP struct {
	Layers      []Dense
	Temperature jit.Array
}

func (m *MLP) Forward(x jit.Array) jit.Array {
	h := x
	for i, l := range m.Layers {
		h = h.MatMul(l.W).Add(l.B)
		if i < len(m.Layers)-1 {
			h = h.Tanh()
		}
	}
	return h
}

// Loss is the mean softmax cross-entropy; y is one-hot.
func (m *MLP) Loss(x, y jit.Array) jit.Array {
	z := m.Forward(x)
	lse := z.Exp().Sum(1).Log()
	return lse.Sub(z.Mul(y).Sum(1)).Mean()
}

func (m *MLP) Accuracy(x, y jit.Array) jit.Array {
	z := m.Forward(x)
	pred := z.Slice([]int{0, 1}, []int{z.Shape()[0], 2}).Gt(z.Slice([]int{0, 0}, []int{z.Shape()[0], 1}))
	truth := y.Slice([]int{0, 1}, []int{y.Shape()[0], 2}).Gt(0.5)
	return pred.Eq(truth).Astype(jit.Float32).Mean()
}

func (m *MLP) temperature() float64 {
	return m.Temperature.Item() // want tracedbool
}

// Sample draws labels with Gumbel noise scaled by the temperature.
func (m *MLP) Sample(x, gumbel jit.Array) jit.Array {
	t := m.temperature()
	z := m.Forward(x).Div(math.Max(t, 1e-3)).Add(gumbel)
	return z.Slice([]int{0, 1}, []int{z.Shape()[0], 2}).Gt(z.Slice([]int{0, 0}, []int{z.Shape()[0], 1}))
}

func (m *MLP) apply(g *MLP, lr float64) *MLP {
	out := &MLP{Temperature: m.Temperature}
	for i, l := range m.Layers {
		out.Layers = append(out.Layers, Dense{l.W.Sub(g.Layers[i].W.Mul(lr)), l.B.Sub(g.Layers[i].B.Mul(lr))})
	}
	return out
}

func spiral(n int) (jit.Array, jit.Array) {
	xs := make([]float32, 0, 2*n)
	ys := make([]float32, 0, 2*n)
	for i := 0; i < n; i++ {
		c := i % 2
		t := float64(i/2) / float64(n/2) * 3 * math.Pi / 2
		r := 0.2 + t/5
		a := t + float64(c)*math.Pi
		xs = append(xs, float32(r*math.Cos(a)), float32(r*math.Sin(a)))
		ys = append(ys, float32(1-c), float32(c))
	}
	return jit.FromSlice(xs, n, 2), jit.FromSlice(ys, n, 2)
}

func initLayer(in, out int, seed float64) Dense {
	w := make([]float32, in*out)
	for i := range w {
		w[i] = float32(math.Sin(seed+float64(i)*1.7) / math.Sqrt(float64(in)))
	}
	return Dense{jit.FromSlice(w, in, out), jit.Zeros(jit.Float32, out)}
}

func main() {
	x, y := spiral(64)
	m := &MLP{Layers: []Dense{initLayer(2, 16, 0.3), initLayer(16, 2, 1.1)}, Temperature: jit.Scalar(float32(0.5))}
	fmt.Printf("sampling temperature %.2f\n", m.Temperature.Item())

	vg := jit.Jit(jit.ValueAndGrad[func(*MLP, jit.Array, jit.Array) (jit.Array, *MLP)]((*MLP).Loss))
	forward := jit.Jit((*MLP).Forward)

	for epoch := 0; epoch < 5; epoch++ {
		var loss jit.Array
		for it := 0; it < 40; it++ {
			var g *MLP
			loss, g = vg.Call(m, x, y)
			m = m.apply(g, 0.3)
		}
		acc := jit.Jit(m.Accuracy) // want staticargs
		fmt.Printf("epoch %d  loss %.4f  accuracy %.3f\n", epoch, loss.Item(), acc.Call(x, y).Item())
	}

	probe := jit.FromSlice([]float32{0.1, 0.1, -0.5, 0.3, 0.6, -0.6, 0, 0.9}, 4, 2)
	fmt.Println("probe logits:\n", forward.Call(m, probe))

	gumbel := jit.FromSlice([]float32{0.1, -0.3, 0.7, 0.2, -0.5, 0.4, 0.0, 0.9}, 4, 2)
	sample := jit.Jit((*MLP).Sample)
	fmt.Println("sampled labels:", sample.Call(m, probe, gumbel))
}
