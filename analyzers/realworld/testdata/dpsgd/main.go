// dpsgd trains a logistic-regression classifier with differentially private
// SGD (Abadi et al. 2016), ported from the JAX DP-SGD example: per-example
// gradients with vmap(grad(loss)), each clipped to an L2 norm C, summed,
// Gaussian noise of scale sigma*C added, then averaged over the batch.
//
// The first part is the straight port of the notebook's training loop; the
// second is the clip-norm sweep used to pick C for the paper table.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"corpus/lrsched"

	"github.com/jitlint/jitlint/jit"
)

const (
	dim        = 16
	numTrain   = 512
	batchSize  = 32
	noiseMult  = 1.1 // sigma
	delta      = 1e-5
	sweepSteps = 15
)

// Params of the linear model.
type Params struct {
	W jit.Array // [dim]
	B jit.Array // []
}

// ExampleLoss is the logistic loss of one example (x: [dim], y: []).
func ExampleLoss(p Params, x, y jit.Array) jit.Array {
	z := x.Mul(p.W).Sum().Add(p.B)
	return jit.Softplus(z).Sub(y.Mul(z))
}

type gradFn = func(Params, jit.Array, jit.Array) Params

// perExampleGrads maps grad(ExampleLoss) over the batch axis of x and y;
// the parameters are shared by every example.
var perExampleGrads = jit.Vmap(jit.Grad[gradFn](ExampleLoss), jit.InAxes(jit.NotMapped, 0, 0))

// clipAndSum clips each example's gradient to norm clip and sums them. It
// also returns the fraction of examples that were clipped.
func clipAndSum(g Params, clip float64) (Params, jit.Array) {
	b := g.W.Shape()[0]
	norms := g.W.Mul(g.W).Sum(1).Add(g.B.Mul(g.B)).Sqrt() // [B]
	factor := jit.Scalar(float32(clip)).Div(norms.Max(clip))
	w := g.W.Mul(factor.Reshape(b, 1)).Sum(0)
	bias := g.B.Mul(factor).Sum()
	clipped := norms.Gt(clip).Astype(jit.Float32).Mean()
	return Params{W: w, B: bias}, clipped
}

var noiseRng = rand.New(rand.NewSource(2016))

// NoisyAggregate is the privatized mean gradient of one batch of
// per-example gradients, with the notebook's clip norm of 1.
func NoisyAggregate(g Params) Params {
	const clip = 1.0
	sum, _ := clipAndSum(g, clip)
	n := float64(g.W.Shape()[0])
	eps := make([]float32, dim+1)
	for i := range eps {
		eps[i] = float32(noiseRng.NormFloat64() * noiseMult * clip) // want traceeffect
	}
	noise := jit.FromSlice(eps)
	return Params{
		W: sum.W.Add(noise.Slice([]int{0}, []int{dim})).Div(n),
		B: sum.B.Add(noise.Slice([]int{dim}, []int{dim + 1}).Reshape()).Div(n),
	}
}

// notebookStep is one DP-SGD step as the notebook wrote it.
func notebookStep(p Params, x, y jit.Array, lr float64) Params {
	grads := jit.Jit(func(p Params, x, y jit.Array) Params { // want staticargs
		return jit.Vmap(jit.Grad[gradFn](ExampleLoss), jit.InAxes(jit.NotMapped, 0, 0))(p, x, y)
	})
	g := jit.Jit(NoisyAggregate).Call(grads.Call(p, x, y))
	return Params{W: p.W.Sub(g.W.Mul(lr)), B: p.B.Sub(g.B.Mul(lr))}
}

// DPStep is the whole private update in one program. The noise is drawn on
// the host from a seeded generator and passed in, so every step gets fresh
// noise; clip is static because the sweep compiles one program per C.
func DPStep(p Params, x, y jit.Array, noise Params, lr jit.Array, clip float64) (Params, jit.Array) {
	g := perExampleGrads(p, x, y)
	sum, clipped := clipAndSum(g, clip)
	n := float64(x.Shape()[0])
	gw := sum.W.Add(noise.W.Mul(noiseMult * clip)).Div(n)
	gb := sum.B.Add(noise.B.Mul(noiseMult * clip)).Div(n)
	return Params{W: p.W.Sub(gw.Mul(lr)), B: p.B.Sub(gb.Mul(lr))}, clipped
}

// Evaluate returns the accuracy and mean loss over a labelled set.
func Evaluate(p Params, x, y jit.Array) (jit.Array, jit.Array) {
	z := x.MatMul(p.W).Add(p.B)
	loss := jit.Softplus(z).Sub(y.Mul(z)).Mean()
	pred := z.Gt(0).Astype(jit.Float32)
	acc := pred.Eq(y).Astype(jit.Float32).Mean()
	jit.DebugPrint("eval: loss=%v acc=%v", loss, acc)
	return acc, loss
}

func blobs(rng *rand.Rand, n int) (jit.Array, jit.Array) {
	xs := make([]float32, n*dim)
	ys := make([]float32, n)
	for i := 0; i < n; i++ {
		lab := i % 2
		for j := 0; j < dim; j++ {
			mu := 0.4
			if lab == 0 {
				mu = -0.4
			}
			if j%3 == 0 {
				mu = 0 // uninformative features
			}
			xs[i*dim+j] = float32(mu + rng.NormFloat64())
		}
		ys[i] = float32(lab)
	}
	return jit.FromSlice(xs, n, dim), jit.FromSlice(ys, n)
}

func batch(x, y jit.Array, idx []int) (jit.Array, jit.Array) {
	xf, yf := x.Float32s(), y.Float32s()
	bx := make([]float32, 0, len(idx)*dim)
	by := make([]float32, 0, len(idx))
	for _, i := range idx {
		bx = append(bx, xf[i*dim:(i+1)*dim]...)
		by = append(by, yf[i])
	}
	return jit.FromSlice(bx, len(idx), dim), jit.FromSlice(by, len(idx))
}

func gaussianParams(rng *rand.Rand) Params {
	w := make([]float32, dim)
	for i := range w {
		w[i] = float32(rng.NormFloat64())
	}
	return Params{W: jit.FromSlice(w), B: jit.Scalar(float32(rng.NormFloat64()))}
}

// epsilon is the moments-accountant estimate for Poisson-ish sampling rate
// q, T steps and noise multiplier sigma (Abadi et al., Theorem 1 constant 2).
func epsilon(q float64, steps int, sigma float64) float64 {
	return 2 * q * math.Sqrt(float64(steps)*math.Log(1/delta)) / sigma
}

func zeroParams() Params {
	return Params{W: jit.Zeros(jit.Float32, dim), B: jit.Scalar(float32(0))}
}

func main() {
	dataRng := rand.New(rand.NewSource(1))
	X, Y := blobs(dataRng, numTrain)
	Xte, Yte := blobs(dataRng, 256)
	q := float64(batchSize) / numTrain
	eval := jit.Jit(Evaluate)

	// Part 1: the notebook's loop.
	sampler := rand.New(rand.NewSource(3))
	p := zeroParams()
	const notebookSteps = 6
	for step := 0; step < notebookSteps; step++ {
		bx, by := batch(X, Y, sampler.Perm(numTrain)[:batchSize])
		p = notebookStep(p, bx, by, 0.5)
	}
	acc, _ := eval.Call(p, Xte, Yte)
	fmt.Printf("notebook loop: %d steps, test acc %.3f, eps=%.2f\n",
		notebookSteps, acc.Item(), epsilon(q, notebookSteps, noiseMult))

	// Part 2: sweep the clip norm with a cosine schedule per run.
	step := jit.Jit(DPStep, jit.StaticArgnums(5))
	sched := lrsched.Cosine(0.8, sweepSteps, 0.1)
	for _, clip := range []float64{0.5, 1.0, 2.0} {
		noiseSrc := rand.New(rand.NewSource(int64(clip * 100)))
		p := zeroParams()
		var clippedFrac float64
		for t := 0; t < sweepSteps; t++ {
			bx, by := batch(X, Y, sampler.Perm(numTrain)[:batchSize])
			var c jit.Array
			p, c = step.Call(p, bx, by, gaussianParams(noiseSrc), sched.Value(t), clip)
			clippedFrac += c.Item()
		}
		acc, loss := eval.Call(p, Xte, Yte)
		fmt.Printf("C=%.1f: test acc %.3f loss %.4f, %.0f%% of examples clipped, eps=%.2f\n",
			clip, acc.Item(), loss.Item(), 100*clippedFrac/sweepSteps, epsilon(q, sweepSteps, noiseMult))
	}
	fmt.Println("dp step signatures:", len(step.Signatures()))
}
