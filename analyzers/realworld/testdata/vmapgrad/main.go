// vmapgrad trains a logistic-regression model with per-example gradients
// (DP-SGD style): Vmap(Grad(loss)) audits gradient norms, a clipped,
// averaged update is jitted with the clip bound as a static argument, and
// the model is evaluated per user.
package main

import (
	"fmt"
	"log"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	dim      = 8
	nTrain   = 96
	batch    = 16
	padBatch = 32
)

// Params are the model's weights.
type Params struct {
	W, B jit.Array
}

type gradFn = func(Params, jit.Array, jit.Array) Params

func exampleLoss(p Params, x, y jit.Array) jit.Array {
	z := x.Mul(p.W).Sum().Add(p.B)
	return jit.Softplus(z).Sub(z.Mul(y))
}

var exampleGrad = jit.Grad[gradFn](exampleLoss)

func treeNorm(g Params) jit.Array {
	return g.W.Mul(g.W).Sum().Add(g.B.Mul(g.B)).Sqrt()
}

func clipTree(g Params, clip float64) Params {
	scale := jit.Full(clip, jit.Float32).Div(treeNorm(g).Max(clip))
	return Params{W: g.W.Mul(scale), B: g.B.Mul(scale)}
}

func clipHard(g Params, clip float64) Params {
	if treeNorm(g).Item() > clip { // want tracedbool
		return clipTree(g, clip)
	}
	return g
}

func gradNorms(p Params, x, y jit.Array) jit.Array {
	per := jit.Vmap(exampleGrad, jit.InAxes(jit.NotMapped, 0, 0))(p, x, y)
	return per.W.Mul(per.W).Sum(1).Add(per.B.Mul(per.B)).Sqrt()
}

func privateStep(p Params, x, y jit.Array, clip float64, phase int) Params {
	log.Printf("building private step: clip=%.3f phase=%d batch=%v", clip, phase, x.Shape()) // want traceeffect
	per := jit.Vmap(func(x, y jit.Array) Params {
		return clipTree(exampleGrad(p, x, y), clip)
	})(x, y)
	lr := 0.5
	if phase == 0 {
		lr = 0.05
	}
	return Params{W: p.W.Sub(per.W.Mean(0).Mul(lr)), B: p.B.Sub(per.B.Mean(0).Mul(lr))}
}

func strictStep(p Params, x, y jit.Array, clip float64) Params {
	per := jit.Vmap(func(x, y jit.Array) Params {
		return clipHard(exampleGrad(p, x, y), clip)
	})(x, y)
	return Params{W: p.W.Sub(per.W.Mean(0).Mul(0.5)), B: p.B.Sub(per.B.Mean(0).Mul(0.5))}
}

// maskedAccuracy is the accuracy over the rows where mask is 1.
func maskedAccuracy(p Params, x, y, mask jit.Array) jit.Array {
	z := x.MatMul(p.W).Add(p.B)
	hit := jit.Where(z.Gt(0), y, y.Neg().Add(1))
	return hit.Mul(mask).Sum().Div(mask.Sum())
}

func accuracy(p Params, x, y jit.Array) jit.Array {
	z := x.MatMul(p.W).Add(p.B)
	return jit.Where(z.Gt(0), y, y.Neg().Add(1)).Mean()
}

func data(n int, offset float64) (x, y jit.Array) {
	x = jit.Arange(n*dim, jit.Float32).Mul(0.917).Add(offset).Sin().Reshape(n, dim)
	y = x.Sum(1).Gt(0).Astype(jit.Float32)
	return x, y
}

func rows(a jit.Array, lo, hi int) jit.Array {
	s := append([]int{}, a.Shape()...)
	start := make([]int, len(s))
	start[0], s[0] = lo, hi
	return a.Slice(start, s)
}

func padRows(a jit.Array, n int) jit.Array {
	s := append([]int{}, a.Shape()...)
	if s[0] == n {
		return a
	}
	s[0] = n - s[0]
	return jit.Concatenate(0, a, jit.Zeros(a.Dtype(), s...))
}

func initParams() Params {
	return Params{W: jit.Zeros(jit.Float32, dim), B: jit.Zeros(jit.Float32)}
}

func audit(p Params, x, y jit.Array) {
	for lo := 0; lo < nTrain; lo += batch {
		perExample := jit.Jit(func(p Params, x, y jit.Array) Params { // want staticargs
			return jit.Vmap(exampleGrad, jit.InAxes(jit.NotMapped, 0, 0))(p, x, y)
		})
		per := perExample.Call(p, rows(x, lo, lo+batch), rows(y, lo, lo+batch))
		fmt.Printf("audit batch %d: max |dW| %.4f\n", lo/batch, treeNorm(Params{W: per.W.MaxReduce(0), B: per.B.MaxReduce()}).Item())
	}
	normsOf := jit.Jit(gradNorms)
	worst := 0.0
	for lo := 0; lo < nTrain; lo += batch {
		worst = math.Max(worst, normsOf.Call(p, rows(x, lo, lo+batch), rows(y, lo, lo+batch)).MaxReduce().Item())
	}
	fmt.Printf("largest per-example gradient norm: %.4f\n", worst)
}

func trainDP(x, y jit.Array) Params {
	p := initParams()
	step := jit.Jit(privateStep, jit.StaticArgnums(3, 4))
	var history []float64
	acc := jit.Jit(accuracy)
	for epoch := 0; epoch < 5; epoch++ {
		for lo := 0; lo < nTrain; lo += batch {
			phase := 1
			if epoch == 0 {
				phase = 0
			}
			p = step.Call(p, rows(x, lo, lo+batch), rows(y, lo, lo+batch), 1.0, phase)
		}
		history = append(history, acc.Call(p, x, y).Item())
	}
	fmt.Println("train accuracy per epoch:", history)
	return p
}

func annealClip(p Params, x, y jit.Array) Params {
	step := jit.Jit(privateStep, jit.StaticArgnums(3, 4))
	for k := 0; k < 6; k++ {
		clip := math.Pow(0.8, float64(k))
		p = step.Call(p, rows(x, 0, batch), rows(y, 0, batch), clip, 1) // want staticargs
	}
	return p
}

func evalUsers(p Params) {
	acc := jit.Jit(accuracy)
	masked := jit.Jit(maskedAccuracy)
	for u, n := range []int{5, 9, 13, 17, 21, 25} {
		xu, yu := data(n, float64(u)*3.1)
		raw := acc.Call(p, xu, yu) // want shapechurn
		mask := padRows(jit.Ones(jit.Float32, n), padBatch)
		padded := masked.Call(p, padRows(xu, padBatch), padRows(yu, padBatch), mask)
		fmt.Printf("user %d (%2d examples): accuracy %.3f (padded %.3f)\n", u, n, raw.Item(), padded.Item())
	}
}

func main() {
	x, y := data(nTrain, 0)
	audit(initParams(), x, y)
	p := trainDP(x, y)
	p = annealClip(p, x, y)
	evalUsers(p)
	strict := jit.Jit(strictStep, jit.StaticArgnums(3))
	strict.Call(p, rows(x, 0, batch), rows(y, 0, batch), 1.0).B.BlockUntilReady()
}
