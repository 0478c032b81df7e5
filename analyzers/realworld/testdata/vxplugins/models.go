package main

import (
	"math/rand/v2"

	"github.com/jitlint/jitlint/jit"
)

func randMat(r *rand.Rand, rows, cols int, scale float32) jit.Array {
	data := make([]float32, rows*cols)
	for i := range data {
		data[i] = (r.Float32()*2 - 1) * scale
	}
	return jit.FromSlice(data, rows, cols)
}

// jitted adapts a jitted unary function to Model.
type jitted struct {
	name string
	fn   *jit.Func[func(jit.Array) jit.Array]
}

func (j jitted) Name() string                  { return j.name }
func (j jitted) Predict(x jit.Array) jit.Array { return j.fn.Call(x) }

// LinearParams is a pytree: y = x·W + B.
type LinearParams struct {
	W, B jit.Array
}

// Apply is used through the method expression LinearParams.Apply.
func (p LinearParams) Apply(x jit.Array) jit.Array { return x.MatMul(p.W).Add(p.B).Sum(1) }

type linear struct{ LinearParams }

func (*linear) Name() string { return "linear" }

func (l *linear) Predict(x jit.Array) jit.Array {
	return jit.Jit(LinearParams.Apply).Call(l.LinearParams, x)
}

type mlp struct{ layers []jit.Array }

func (m *mlp) forward(x jit.Array) jit.Array {
	h := x
	for _, w := range m.layers {
		h = jit.Relu(h.MatMul(w))
	}
	return h.Sum(1)
}

// gated scores through a sigmoid gate.
type gated struct {
	gate, proj jit.Array
}

func (*gated) Name() string { return "gated" }

func (g *gated) score(x jit.Array) jit.Array {
	return x.MatMul(g.gate).Logistic().Mul(x.MatMul(g.proj)).Sum(1)
}

func (g *gated) Predict(x jit.Array) jit.Array {
	score := jit.Jit(g.score) // want staticargs
	return score.Call(x)
}

// SoftParams carries the sampling temperature and the head choice as static fields.
type SoftParams struct {
	W    jit.Array
	Temp float64 `jit:"static"`
	Head int     `jit:"static"`
}

func softScores(p SoftParams, x jit.Array) jit.Array {
	logits := x.MatMul(p.W).Div(p.Temp)
	if p.Head == 1 {
		logits = logits.Tanh()
	}
	e := logits.Sub(logits.MaxReduce(1).Reshape(-1, 1)).Exp()
	return e.Div(e.Sum(1).Reshape(-1, 1)).MaxReduce(1)
}

var softJit = jit.Jit(softScores)

// annealed lowers its temperature after every prediction.
type annealed struct {
	w    jit.Array
	temp float64
}

func (*annealed) Name() string { return "annealed" }

func (a *annealed) Predict(x jit.Array) jit.Array {
	y := softJit.Call(SoftParams{W: a.w, Temp: a.temp, Head: 0}, x) // want staticargs
	a.temp *= 0.9
	return y
}

// twohead alternates between two heads: only two signatures ever.
type twohead struct {
	w    jit.Array
	next int
}

func (*twohead) Name() string { return "twohead" }

func (t *twohead) Predict(x jit.Array) jit.Array {
	y := softJit.Call(SoftParams{W: t.w, Temp: 0.5, Head: t.next % 2}, x)
	t.next++
	return y
}

// clipGuard squashes out-of-range inputs, but decides so on the tracer.
type clipGuard struct{ limit float64 }

func (c clipGuard) apply(x jit.Array) jit.Array {
	if x.Abs().MaxReduce().Item() > c.limit { // want tracedbool
		x = x.Tanh()
	}
	return x.Mean(1)
}

// horner evaluates a per-feature polynomial with Horner's rule.
type horner struct{ coeffs []float64 }

func (p horner) eval(x jit.Array) jit.Array {
	acc := jit.Zeros(jit.Float32, x.Shape()...)
	for _, c := range p.coeffs { // want unrolledloop
		acc = acc.Mul(x.Mul(0.1)).Add(c)
	}
	return acc.Mean(1)
}

func init() {
	Register("linear", func(dim int) Model {
		r := rand.New(rand.NewPCG(1, 1))
		return &linear{LinearParams{W: randMat(r, dim, 4, 0.5), B: jit.Zeros(jit.Float32, 4)}}
	})
	Register("mlp", func(dim int) Model {
		r := rand.New(rand.NewPCG(2, 2))
		m := &mlp{}
		for range 6 {
			m.layers = append(m.layers, randMat(r, dim, dim, 0.4))
		}
		return jitted{"mlp", jit.Jit(m.forward)}
	})
	Register("gated", func(dim int) Model {
		r := rand.New(rand.NewPCG(3, 3))
		return &gated{gate: randMat(r, dim, 4, 1), proj: randMat(r, dim, 4, 1)}
	})
	Register("annealed", func(dim int) Model {
		return &annealed{w: randMat(rand.New(rand.NewPCG(4, 4)), dim, 5, 1), temp: 1}
	})
	Register("twohead", func(dim int) Model {
		return &twohead{w: randMat(rand.New(rand.NewPCG(5, 5)), dim, 5, 1)}
	})
	Register("clipped", func(int) Model { return jitted{"clipped", jit.Jit(clipGuard{limit: 3}.apply)} })
	Register("poly", func(int) Model {
		var p horner
		for i := range 40 {
			p.coeffs = append(p.coeffs, 1/float64(i+1))
		}
		return jitted{"poly", jit.Jit(p.eval)}
	})
}
