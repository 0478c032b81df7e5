// Command steptrainer fits a small softmax-regression classifier on a
// synthetic three-class data set with plain SGD. The update step takes the
// learning rate as a plain Go number; the classic recipe of halving it every
// 30 epochs over 90 epochs is followed by a cosine-annealed run that
// fine-tunes the result, and per-class recall is reported at the end.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Params are the classifier's weights and bias.
type Params struct {
	W, B jit.Array
}

const (
	nSamples  = 64
	nFeatures = 4
	nClasses  = 3
)

func dataset() (x, y jit.Array) {
	xs := make([]float32, nSamples*nFeatures)
	ys := make([]float32, nSamples*nClasses)
	for i := 0; i < nSamples; i++ {
		c := i % nClasses
		for j := 0; j < nFeatures; j++ {
			xs[i*nFeatures+j] = float32(math.Sin(float64(i*(j+1))) + float64(c*(j%2)))
		}
		ys[i*nClasses+c] = 1
	}
	return jit.FromSlice(xs, nSamples, nFeatures), jit.FromSlice(ys, nSamples, nClasses)
}

func loss(p Params, x, y jit.Array) jit.Array {
	logits := x.MatMul(p.W).Add(p.B)
	z := logits.Sub(logits.MaxReduce(1).Reshape(nSamples, 1))
	logp := z.Sub(z.Exp().Sum(1).Log().Reshape(nSamples, 1))
	return logp.Mul(y).Sum().Neg().Div(nSamples)
}

var lossGrad = jit.ValueAndGrad[func(Params, jit.Array, jit.Array) (jit.Array, Params)](loss)

// sgd applies one update with learning rate lr.
func sgd(lr float64, p Params, x, y jit.Array) (Params, jit.Array) {
	l, g := lossGrad(p, x, y)
	return Params{W: p.W.Sub(g.W.Mul(lr)), B: p.B.Sub(g.B.Mul(lr))}, l
}

var evals int

// perClassRecall returns, for every class, the fraction of its samples that
// the classifier gets right.
func perClassRecall(p Params, x, y jit.Array) jit.Array {
	evals++ // want traceeffect
	logits := x.MatMul(p.W).Add(p.B)
	top := logits.MaxReduce(1).Reshape(nSamples, 1)
	hit := logits.Ge(top).Astype(jit.Float32).Mul(y)
	recalls := make([]jit.Array, nClasses)
	for c := 0; c < nClasses; c++ {
		col := []int{0, c}
		recalls[c] = hit.Slice(col, []int{nSamples, c + 1}).Sum().Div(y.Slice(col, []int{nSamples, c + 1}).Sum())
	}
	return jit.Concatenate(0, recalls[0].Reshape(1), recalls[1].Reshape(1), recalls[2].Reshape(1))
}

func stepDecay(base float64, epoch int) float64 {
	return base * math.Pow(0.5, float64(epoch/30))
}

func cosine(base float64, step, total int) float64 {
	return 0.5 * base * (1 + math.Cos(math.Pi*float64(step)/float64(total)))
}

func main() {
	x, y := dataset()
	p := Params{W: jit.Zeros(jit.Float32, nFeatures, nClasses), B: jit.Zeros(jit.Float32, nClasses)}
	update := jit.Jit(sgd, jit.StaticArgnums(0))

	var l jit.Array
	history := []float64{}
	for epoch := 0; epoch < 90; epoch++ {
		p, l = update.Call(stepDecay(0.5, epoch), p, x, y)
		if epoch%30 == 29 {
			history = append(history, l.Item())
		}
	}
	fmt.Printf("step decay: loss every 30 epochs %.4f, compiles=%d\n", history, update.Stats().Compiles)

	const total = 24
	for s := 0; s < total; s++ {
		lr := cosine(0.1, s, total)
		p, l = update.Call(lr, p, x, y) // want staticargs
	}
	fmt.Printf("cosine fine-tune: loss %.4f, compiles=%d\n", l.Item(), update.Stats().Compiles)
	recall := jit.Jit(perClassRecall)
	for i := 0; i < 3; i++ {
		r := recall.Call(p, x, y).Float32s()
		fmt.Printf("recall per class: %.3f\n", r)
	}
	fmt.Println("bias:", p.B, "evals traced:", evals)
}
