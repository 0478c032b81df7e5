// Command dpsgdclip trains a small logistic-regression classifier with
// per-example gradient clipping, the core step of DP-SGD: every example's
// gradient is computed at once with a vectorized gradient, clipped to a
// maximum L2 norm, averaged over the mini-batch and applied with plain SGD.
// Positive examples are rare, so their loss is a focal-style cross-entropy
// while negatives use the plain one; an optional L2 penalty on the weights
// is controlled by a flag.
package main

import (
	"fmt"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// Params are the classifier's weights.
type Params struct {
	W jit.Array // [D]
	B jit.Array // []
}

const (
	dim       = 6
	nExamples = 50
	batchSize = 16
	maxNorm   = 1.0
	lr        = 0.5
)

var gradEvals int

func positiveLoss(z jit.Array) jit.Array {
	// focal weighting: (1 - sigmoid(z))^2 * -log(sigmoid(z))
	q := z.Neg().Logistic()
	return q.Mul(q).Mul(jit.Softplus(z.Neg()))
}

func negativeLoss(z jit.Array) jit.Array { return jit.Softplus(z) }

// exampleLoss is the loss of one example (x: [D], y: []).
func exampleLoss(p Params, l2 jit.Array, x, y jit.Array) jit.Array {
	gradEvals++ // want traceeffect
	z := x.Mul(p.W).Sum().Add(p.B)
	ce := jit.Cond(y.Gt(0.5), positiveLoss, negativeLoss, z) // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
	reg := jit.Cond(l2.Gt(0),
		func(w jit.Array) jit.Array { return w.Mul(w).Sum().Mul(1e-3) },
		func(w jit.Array) jit.Array { return w.Sum().Mul(0) }, p.W)
	return ce.Add(reg)
}

type gradFn = func(Params, jit.Array, jit.Array, jit.Array) Params

// clipAndAverage clips every per-example gradient to maxNorm and averages.
func clipAndAverage(g Params) Params {
	sq := g.W.Mul(g.W).Sum(1).Add(g.B.Mul(g.B))
	scale := sq.Sqrt().Div(maxNorm).Max(1).Pow(-1)
	return Params{
		W: g.W.Mul(scale.Reshape(-1, 1)).Mean(0),
		B: g.B.Mul(scale).Mean(),
	}
}

func sgd(p, g Params) Params {
	return Params{W: p.W.Sub(g.W.Mul(lr)), B: p.B.Sub(g.B.Mul(lr))}
}

func batchLoss(p Params, x, y jit.Array) jit.Array {
	z := x.MatMul(p.W).Add(p.B)
	return jit.Softplus(z).Sub(z.Mul(y)).Mean()
}

func makeData(r *rand.Rand) (jit.Array, jit.Array) {
	xs := make([]float32, nExamples*dim)
	ys := make([]float32, nExamples)
	for i := 0; i < nExamples; i++ {
		s := float32(0)
		for j := 0; j < dim; j++ {
			v := float32(r.NormFloat64())
			xs[i*dim+j] = v
			s += v * float32(j%3-1)
		}
		if s > 0.8 {
			ys[i] = 1
		}
	}
	return jit.FromSlice(xs, nExamples, dim), jit.FromSlice(ys)
}

func main() {
	r := rand.New(rand.NewSource(7))
	xs, ys := makeData(r)
	p := Params{W: jit.Zeros(jit.Float32, dim), B: jit.Scalar(float32(0))}
	l2 := jit.Scalar(float32(1))

	perExample := jit.Vmap(jit.Grad[gradFn](exampleLoss),
		jit.InAxes(jit.NotMapped, jit.NotMapped, 0, 0))
	step := jit.Jit(func(p Params, l2, x, y jit.Array) Params {
		return sgd(p, clipAndAverage(perExample(p, l2, x, y)))
	})
	evalLoss := jit.Jit(batchLoss)

	for epoch := 0; epoch < 4; epoch++ {
		for start := 0; start < nExamples; start += batchSize {
			end := min(start+batchSize, nExamples)
			x := xs.Slice([]int{start, 0}, []int{end, dim})
			y := ys.Slice([]int{start}, []int{end})
			p = step.Call(p, l2, x, y)
		}
		loss := evalLoss.Call(p, xs, ys).Item()
		fmt.Printf("epoch %d  loss %.4f\n", epoch, loss)
	}
	fmt.Println("weights:", p.W)
	fmt.Println("gradient evaluations:", gradEvals)

	g := perExample(p, l2, xs.Slice([]int{0, 0}, []int{3, dim}), ys.Slice([]int{0}, []int{3}))
	fmt.Println("per-example dW (first 3):", g.W)

	cj, err := jit.MakeJaxpr(jit.Vmap(jit.Grad[gradFn](exampleLoss),
		jit.InAxes(jit.NotMapped, jit.NotMapped, 0, 0)))(p, l2, jit.Spec(jit.Float32, 4, dim), jit.Spec(jit.Float32, 4))
	if err != nil {
		panic(err)
	}
	fmt.Println(cj)
}
