// Command genericfit fits two model families with one generic trainer:
// the trainer is parameterised by a config type whose Steps method says
// how many inner gradient steps one jitted call takes (a fine-tuning
// config takes 3, a from-scratch config 40, both unrolled by a Go loop),
// and the models sit behind an interface with a linear and a two-layer
// implementation, the latter looping over its configured depth.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Model is a differentiable-by-hand regressor.
type Model interface {
	Predict(w, x jit.Array) jit.Array
	Grad(w, x, y jit.Array) jit.Array
}

type linear struct{}

func (linear) Predict(w, x jit.Array) jit.Array { return x.MatMul(w) }

func (linear) Grad(w, x, y jit.Array) jit.Array {
	return x.Transpose(1, 0).MatMul(x.MatMul(w).Sub(y)).Div(float64(x.Shape()[0]))
}

// deep applies the same square layer depth times before the readout.
type deep struct{ depth int }

func (d deep) features(w, x jit.Array) jit.Array {
	for range d.depth {
		x = x.Add(x.MatMul(w).Tanh().Mul(0.1))
	}
	return x
}

func (d deep) Predict(w, x jit.Array) jit.Array {
	return d.features(w, x).Sum(1).Reshape(x.Shape()[0], 1)
}

func (d deep) Grad(w, x, y jit.Array) jit.Array {
	r := d.Predict(w, x).Sub(y)
	return x.Transpose(1, 0).MatMul(r.MatMul(jit.Ones(jit.Float32, 1, w.Shape()[1]))).Div(float64(x.Shape()[0]))
}

// Config says how a trainer steps.
type Config interface {
	Steps() int
	Rate() float64
}

type fineTune struct{}

func (fineTune) Steps() int    { return 3 }
func (fineTune) Rate() float64 { return 0.01 }

type scratch struct{ epochsPerCall int }

func (s scratch) Steps() int    { return s.epochsPerCall * 10 }
func (s scratch) Rate() float64 { return 0.1 }

// Trainer runs cfg.Steps() gradient steps of model per jitted call.
type Trainer[C Config, M Model] struct {
	cfg   C
	model M
	step  *jit.Func[func(w, x, y jit.Array) jit.Array]
}

// NewTrainer jits the trainer's inner loop once.
func NewTrainer[C Config, M Model](cfg C, model M) *Trainer[C, M] {
	t := &Trainer[C, M]{cfg: cfg, model: model}
	t.step = jit.Jit(t.inner) // a method value of the trainer this call makes: a new function each time
	return t
}

func (t *Trainer[C, M]) inner(w, x, y jit.Array) jit.Array {
	for range t.cfg.Steps() { // want unrolledloop
		w = w.Sub(t.model.Grad(w, x, y).Mul(t.cfg.Rate()))
	}
	return w
}

// Fit calls the jitted inner loop rounds times.
func (t *Trainer[C, M]) Fit(w, x, y jit.Array, rounds int) jit.Array {
	for range rounds {
		w = t.step.Call(w, x, y)
	}
	return w
}

func data() (jit.Array, jit.Array) {
	xs := make([]float32, 6*4)
	ys := make([]float32, 6)
	for i := range 6 {
		for j := range 4 {
			xs[i*4+j] = float32((i*j)%5) / 5
		}
		ys[i] = xs[i*4+1] + 0.3
	}
	return jit.FromSlice(xs, 6, 4), jit.FromSlice(ys, 6, 1)
}

func main() {
	x, y := data()
	ft := NewTrainer(fineTune{}, linear{})
	fmt.Println("fine-tune linear:", ft.Fit(jit.Zeros(jit.Float32, 4, 1), x, y, 5).Sum().Item())

	dp := NewTrainer(fineTune{}, deep{depth: 2})
	fmt.Println("fine-tune deep:", dp.Fit(jit.Full(0.01, jit.Float32, 4, 4), x, y, 5).Sum().Item())

	sc := NewTrainer(scratch{epochsPerCall: 4}, linear{})
	fmt.Println("scratch linear:", sc.Fit(jit.Zeros(jit.Float32, 4, 1), x, y, 3).Sum().Item())
}
