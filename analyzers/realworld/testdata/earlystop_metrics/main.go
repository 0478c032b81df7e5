// Command earlystop_metrics trains a logistic-regression classifier on two
// noisy Gaussian blobs and evaluates it after every epoch with a table of
// jitted metrics (log-loss, accuracy, Brier score, expected calibration
// error), stopping early when the validation loss stops improving. At the
// end it prints a fine reliability diagram and a bootstrap interval for the
// accuracy, then tries the "fused" step that checks for improvement on device.
package main

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/jitlint/jitlint/jit"
)

// Params of the linear classifier.
type Params struct {
	W, B jit.Array
}

func predictProba(p Params, x jit.Array) jit.Array {
	return x.MatMul(p.W).Add(p.B).Logistic()
}

func logLoss(prob, y jit.Array) jit.Array {
	q := prob.Max(1e-6).Min(1 - 1e-6)
	return y.Mul(q.Log()).Add(y.Neg().Add(1).Mul(q.Neg().Add(1).Log())).Mean().Neg()
}

var metricTraces = map[string]int{}

func accuracy(prob, y jit.Array) jit.Array {
	metricTraces["accuracy"]++ // want traceeffect
	return prob.Gt(0.5).Astype(jit.Float32).Eq(y).Astype(jit.Float32).Mean()
}

func brier(prob, y jit.Array) jit.Array {
	d := prob.Sub(y)
	return d.Mul(d).Mean()
}

// ece is the expected calibration error over 10 equal-width bins.
func ece(prob, y jit.Array) jit.Array {
	total := jit.Zeros(jit.Float32)
	for b := 0; b < 10; b++ {
		lo, hi := float64(b)/10, float64(b+1)/10
		in := prob.Ge(lo).And(prob.Lt(hi)).Astype(jit.Float32)
		gap := prob.Sub(y).Mul(in).Sum().Abs()
		total = total.Add(gap)
	}
	return total.Div(float64(prob.Size()))
}

// reliability returns the mean label in each of 40 probability bins.
func reliability(prob, y jit.Array) jit.Array {
	var rows []jit.Array
	for b := 0; b < 40; b++ { // want unrolledloop
		in := prob.Ge(float64(b) / 40).And(prob.Lt(float64(b+1) / 40)).Astype(jit.Float32)
		rows = append(rows, y.Mul(in).Sum().Div(in.Sum().Max(1)).Reshape(1))
	}
	return jit.Concatenate(0, rows...)
}

type metric struct {
	name string
	fn   func(prob, y jit.Array) jit.Array
}

var metrics = []metric{{"logloss", logLoss}, {"accuracy", accuracy}, {"brier", brier}, {"ece", ece}}

func loss(p Params, x, y jit.Array) jit.Array { return logLoss(predictProba(p, x), y) }

var lossGrad = jit.Grad[func(Params, jit.Array, jit.Array) Params](loss)

func sgdStep(p Params, x, y, lr jit.Array) Params {
	g := lossGrad(p, x, y)
	return Params{W: p.W.Sub(g.W.Mul(lr)), B: p.B.Sub(g.B.Mul(lr))}
}

// trainAndCheck is one step plus the improvement test, all on device.
func trainAndCheck(p Params, x, y, lr, best jit.Array) (Params, jit.Array) {
	next := sgdStep(p, x, y, lr)
	l := loss(next, x, y)
	if l.Gt(best).Bool() { // want tracedbool
		return p, best
	}
	return next, l
}

func blobs(r *rand.Rand, n int) (jit.Array, jit.Array) {
	xs, ys := make([]float32, 2*n), make([]float32, n)
	for i := 0; i < n; i++ {
		c := float64(i % 2)
		xs[2*i] = float32(2*c - 1 + r.NormFloat64())
		xs[2*i+1] = float32(c - 0.5 + r.NormFloat64())
		ys[i] = float32(c)
	}
	return jit.FromSlice(xs, n, 2), jit.FromSlice(ys)
}

func evaluate(p Params, x, y jit.Array) map[string]float64 {
	prob := jit.Jit(predictProba).Call(p, x)
	out := map[string]float64{}
	for _, m := range metrics {
		out[m.name] = jit.Jit(m.fn).Call(prob, y).Item()
	}
	return out
}

func main() {
	log.SetFlags(0)
	r := rand.New(rand.NewPCG(5, 8))
	xTrain, yTrain := blobs(r, 256)
	xVal, yVal := blobs(r, 128)
	p := Params{W: jit.Zeros(jit.Float32, 2), B: jit.Zeros(jit.Float32)}
	step := jit.Jit(sgdStep)
	lr := jit.Scalar(float32(0.5))

	best, bestEpoch, patience := math.Inf(1), 0, 0
	bestParams := p
	for epoch := 0; epoch < 300; epoch++ {
		p = step.Call(p, xTrain, yTrain, lr)
		m := evaluate(p, xVal, yVal)
		if epoch%10 == 0 {
			log.Printf("epoch %3d  logloss %.4f  acc %.3f  brier %.4f  ece %.4f", epoch, m["logloss"], m["accuracy"], m["brier"], m["ece"])
		}
		if m["logloss"] < best-1e-4 {
			best, bestEpoch, bestParams, patience = m["logloss"], epoch, p, 0
			continue
		}
		if patience++; patience >= 5 {
			log.Printf("early stop at epoch %d (best %d, logloss %.4f)", epoch, bestEpoch, best)
			break
		}
	}
	fmt.Println("accuracy traced", metricTraces["accuracy"], "time(s)")

	prob := jit.Jit(predictProba).Call(bestParams, xVal)
	fmt.Println("reliability:", jit.Jit(reliability).Call(prob, yVal).Float32s()[16:24])

	const resamples = 200
	weights := make([]float32, resamples*128)
	for i := 0; i < resamples; i++ {
		for j := 0; j < 128; j++ {
			weights[i*128+r.IntN(128)]++
		}
	}
	weightedAcc := func(w, prob, y jit.Array) jit.Array {
		hit := prob.Gt(0.5).Astype(jit.Float32).Eq(y).Astype(jit.Float32)
		return hit.Mul(w).Sum().Div(w.Sum())
	}
	boot := jit.Jit(jit.Vmap(weightedAcc, jit.InAxes(0, jit.NotMapped, jit.NotMapped)))
	accs := boot.Call(jit.FromSlice(weights, resamples, 128), prob, yVal)
	fmt.Printf("bootstrap accuracy in [%.3f, %.3f]\n", accs.MinReduce().Item(), accs.MaxReduce().Item())

	fused := jit.Jit(trainAndCheck)
	p, _ = fused.Call(bestParams, xTrain, yTrain, lr, jit.Scalar(float32(best)))
}
