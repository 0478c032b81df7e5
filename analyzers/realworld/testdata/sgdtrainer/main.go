// Command sgdtrainer fits a linear regressor with minibatch SGD and a
// decaying learning rate, then evaluates it on a held-out split.
package main

import (
	"fmt"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	nFeatures = 36
	batchSize = 32
)

// Params is the model's pytree.
type Params struct {
	W jit.Array // [nFeatures, 1]
	B jit.Array // []
}

// Batch is one minibatch; Split only tags where it came from.
type Batch struct {
	X     jit.Array
	Y     jit.Array
	Split string `jit:"static"`
}

// Trainer owns the parameters and some bookkeeping.
type Trainer struct {
	params    Params
	lossEvals int
	history   []float64
}

func mse(p Params, b Batch) jit.Array {
	pred := b.X.MatMul(p.W).Add(p.B)
	return pred.Sub(b.Y).Pow(2).Mean()
}

var valueAndGrad = jit.ValueAndGrad[func(Params, Batch) (jit.Array, Params)](mse)

// sgdStep is one update; lr is static.
func sgdStep(p Params, b Batch, lr float64) (Params, jit.Array) {
	loss, g := valueAndGrad(p, b)
	return Params{W: p.W.Sub(g.W.Mul(lr)), B: p.B.Sub(g.B.Mul(lr))}, loss
}

// standardizeLoop normalizes each feature column separately.
func standardizeLoop(x jit.Array) jit.Array {
	n := x.Shape()[0]
	cols := make([]jit.Array, 0, nFeatures)
	for j := 0; j < nFeatures; j++ { // want unrolledloop
		c := x.Slice([]int{0, j}, []int{n, j + 1})
		cols = append(cols, c.Sub(c.Mean()).Div(c.Sub(c.Mean()).Pow(2).Mean().Add(1e-6).Sqrt()))
	}
	return jit.Concatenate(1, cols...)
}

// standardize does the same thing with broadcasting.
func standardize(x jit.Array) jit.Array {
	mu := x.Mean(0)
	sd := x.Sub(mu).Pow(2).Mean(0).Add(1e-6).Sqrt()
	return x.Sub(mu).Div(sd)
}

// regularized is the evaluation loss with an L2 penalty.
func (t *Trainer) regularized(p Params, b Batch) jit.Array {
	t.lossEvals++ // want traceeffect
	penalty := p.W.Pow(2).Sum().Mul(1e-3)
	return mse(p, b).Add(penalty)
}

// earlyStop tries to bail out of the graph when the loss is already small.
func earlyStop(p Params, b Batch) jit.Array {
	loss := mse(p, b)
	if loss.Item() < 1e-3 { // want tracedbool
		return jit.Zeros(jit.Float32)
	}
	return loss
}

func makeBatch(rng *rand.Rand, wTrue []float32, split string) Batch {
	xs := make([]float32, batchSize*nFeatures)
	ys := make([]float32, batchSize)
	for i := 0; i < batchSize; i++ {
		var y float32 = 0.5
		for j := 0; j < nFeatures; j++ {
			v := float32(rng.NormFloat64())
			xs[i*nFeatures+j] = v
			y += v * wTrue[j]
		}
		ys[i] = y + 0.01*float32(rng.NormFloat64())
	}
	return Batch{X: jit.FromSlice(xs, batchSize, nFeatures), Y: jit.FromSlice(ys, batchSize, 1), Split: split}
}

func main() {
	rng := rand.New(rand.NewSource(7))
	wTrue := make([]float32, nFeatures)
	for j := range wTrue {
		wTrue[j] = float32(j%4) - 1.5
	}
	t := &Trainer{params: Params{W: jit.Zeros(jit.Float32, nFeatures, 1), B: jit.Scalar(float32(0))}}

	decayed := jit.Jit(sgdStep, jit.StaticArgnums(2))
	stepwise := jit.Jit(sgdStep, jit.StaticArgnums(2))
	evalLoss := jit.Jit(t.regularized)
	norm := jit.Jit(standardize)
	normLoop := jit.Jit(standardizeLoop)

	for step := 0; step < 24; step++ {
		b := makeBatch(rng, wTrue, "train")
		var loss jit.Array
		if step < 12 {
			lr := 0.1 / (1 + 0.05*float64(step))
			t.params, loss = decayed.Call(t.params, b, lr) // want staticargs
		} else {
			lr := 0.05
			if step >= 18 {
				lr = 0.02
			}
			t.params, loss = stepwise.Call(t.params, b, lr)
		}
		t.history = append(t.history, loss.Item())
		if step%6 == 0 {
			ev := evalLoss.Call(t.params, makeBatch(rng, wTrue, "eval"))
			fmt.Printf("step %2d  train %.4f  eval %.4f\n", step, loss.Item(), ev.Item())
		}
	}
	for i := 0; i < 4; i++ {
		evalLoss.Call(t.params, makeBatch(rng, wTrue, "eval"))
	}
	held := makeBatch(rng, wTrue, "test")
	a := norm.Call(held.X)
	for i := 0; i < 3; i++ {
		a = normLoop.Call(held.X)
	}
	fmt.Printf("standardized col0 mean %.4f, history %d, loss evals traced %d\n",
		a.Slice([]int{0, 0}, []int{batchSize, 1}).Mean().Item(), len(t.history), t.lossEvals)

	fmt.Printf("decayed compiles=%d stepwise compiles=%d\n", decayed.Stats().Compiles, stepwise.Stats().Compiles)

	// Final check on the test split: earlyStop cannot be traced.
	fmt.Println("test loss:", jit.Jit(earlyStop).Call(t.params, held))
}
