// Command cosine_warmup_trainer fits a small two-layer network to a noisy sine
// curve with plain SGD. It is a port of our JAX notebook that compares three
// ways of feeding a learning-rate schedule into the jitted update: linear
// warmup followed by cosine decay, a dynamic scalar learning rate, and a
// classic step decay that halves the rate every few hundred steps.
package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/jitlint/jitlint/jit"
)

// Params are the weights of a 1 -> hidden -> 1 MLP.
type Params struct {
	W1, B1, W2, B2 jit.Array
}

// Schedule is linear warmup then cosine decay down to MinFrac*Base.
type Schedule struct {
	Base    float64
	Warmup  int
	Total   int
	MinFrac float64
}

// At returns the learning rate of step.
func (s Schedule) At(step int) float64 {
	if step < s.Warmup {
		return s.Base * float64(step+1) / float64(s.Warmup)
	}
	t := float64(step-s.Warmup) / float64(s.Total-s.Warmup)
	return s.Base * (s.MinFrac + (1-s.MinFrac)*0.5*(1+math.Cos(math.Pi*t)))
}

// stepDecay halves base every `every` steps.
func stepDecay(base float64, step, every int) float64 {
	return base * math.Pow(0.5, float64(step/every))
}

var compiledUpdates int

func forward(p Params, x jit.Array) jit.Array {
	h := x.MatMul(p.W1).Add(p.B1).Tanh()
	return h.MatMul(p.W2).Add(p.B2)
}

func loss(p Params, x, y jit.Array) jit.Array {
	d := forward(p, x).Sub(y)
	return d.Mul(d).Mean()
}

var lossGrad = jit.Grad[func(Params, jit.Array, jit.Array) Params](loss)

func apply(p, g Params, lr any) Params {
	return Params{
		W1: p.W1.Sub(g.W1.Mul(lr)),
		B1: p.B1.Sub(g.B1.Mul(lr)),
		W2: p.W2.Sub(g.W2.Mul(lr)),
		B2: p.B2.Sub(g.B2.Mul(lr)),
	}
}

// updateStatic bakes the learning rate into the compiled program.
func updateStatic(p Params, x, y jit.Array, lr float64) Params {
	compiledUpdates++ // want traceeffect
	return apply(p, lossGrad(p, x, y), lr)
}

// updateDynamic takes the learning rate as a traced scalar.
func updateDynamic(p Params, x, y, lr jit.Array) Params {
	return apply(p, lossGrad(p, x, y), lr)
}

func randn(r *rand.Rand, scale float64, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(r.NormFloat64() * scale)
	}
	return jit.FromSlice(data, shape...)
}

func initParams(r *rand.Rand, hidden int) Params {
	return Params{
		W1: randn(r, 1.0, 1, hidden),
		B1: jit.Zeros(jit.Float32, hidden),
		W2: randn(r, 1/math.Sqrt(float64(hidden)), hidden, 1),
		B2: jit.Zeros(jit.Float32, 1),
	}
}

func dataset(r *rand.Rand, n int) (jit.Array, jit.Array) {
	xs := make([]float32, n)
	ys := make([]float32, n)
	for i := range xs {
		x := r.Float64()*2 - 1
		xs[i] = float32(x)
		ys[i] = float32(math.Sin(3*x) + 0.05*r.NormFloat64())
	}
	return jit.FromSlice(xs, n, 1), jit.FromSlice(ys, n, 1)
}

func main() {
	r := rand.New(rand.NewPCG(7, 11))
	x, y := dataset(r, 128)
	evalLoss := jit.Jit(loss)
	sched := Schedule{Base: 0.2, Warmup: 10, Total: 30, MinFrac: 0.05}

	// Run 1: the schedule value as a static argument, as in the notebook.
	p := initParams(r, 16)
	static := jit.Jit(updateStatic, jit.StaticArgnums(3))
	for step := 0; step < sched.Total; step++ {
		p = static.Call(p, x, y, sched.At(step)) // want staticargs
	}
	fmt.Printf("cosine/static   loss=%.4f compiles=%d\n", evalLoss.Call(p, x, y).Item(), static.Stats().Compiles)

	// Run 2: same schedule, learning rate traced. A fresh wrapper per epoch.
	p = initParams(rand.New(rand.NewPCG(7, 11)), 16)
	long := Schedule{Base: 0.2, Warmup: 40, Total: 400, MinFrac: 0.05}
	for epoch := 0; epoch < long.Total/40; epoch++ {
		dyn := jit.Jit(updateDynamic)
		for i := 0; i < 40; i++ {
			step := epoch*40 + i
			p = dyn.Call(p, x, y, jit.Scalar(float32(long.At(step))))
		}
	}
	fmt.Printf("cosine/dynamic  loss=%.4f signatures=%d\n", evalLoss.Call(p, x, y).Item(), len(jit.Jit(updateDynamic).Signatures()))

	// Run 3: step decay, static again: only a handful of distinct rates.
	p = initParams(rand.New(rand.NewPCG(7, 11)), 16)
	decay := jit.Jit(updateStatic, jit.StaticArgnums(3))
	for step := 0; step < 400; step++ {
		p = decay.Call(p, x, y, stepDecay(0.2, step, 150))
	}
	fmt.Printf("step decay      loss=%.4f compiles=%d traced updates=%d\n",
		evalLoss.Call(p, x, y).Item(), decay.Stats().Compiles, compiledUpdates)
}
