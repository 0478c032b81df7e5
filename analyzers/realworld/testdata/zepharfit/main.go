// zepharfit: pick the order of an autoregressive model AR(p) for a demand
// series by gradient descent on the training part and one-step error on a
// validation part, then backtest and forecast with the chosen order.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	maxP    = 8
	nTrain  = 240
	nTotal  = 300
	horizon = 48
)

type Params struct {
	W jit.Array // [p], oldest lag first
	B jit.Array // []
}

// design returns the lag matrix [n-maxP, p] and the targets [n-maxP].
func design(p int, y jit.Array) (jit.Array, jit.Array) {
	n := y.Shape()[0]
	cols := make([]jit.Array, 0, p)
	for j := 0; j < p; j++ {
		cols = append(cols, y.Slice([]int{maxP - p + j}, []int{n - p + j}).Reshape(n-maxP, 1))
	}
	return jit.Concatenate(1, cols...), y.Slice([]int{maxP}, []int{n})
}

func mse(p int, w Params, y jit.Array) jit.Array {
	x, t := design(p, y)
	r := x.MatMul(w.W).Add(w.B).Sub(t)
	return r.Mul(r).Mean()
}

// Step is one gradient step; p is static because it fixes the shapes.
func Step(p int, w Params, y jit.Array) (Params, jit.Array) {
	vg := jit.ValueAndGrad[func(Params, jit.Array) (jit.Array, Params)](func(w Params, y jit.Array) jit.Array { return mse(p, w, y) })
	loss, g := vg(w, y)
	return Params{w.W.Sub(g.W.Mul(0.1)), w.B.Sub(g.B.Mul(0.1))}, loss
}

// StepLR is Step with the learning rate as a (static) knob.
func StepLR(p int, lr float64, w Params, y jit.Array) Params {
	g := jit.Grad[func(Params, jit.Array) Params](func(w Params, y jit.Array) jit.Array { return mse(p, w, y) })(w, y)
	return Params{w.W.Sub(g.W.Mul(lr)), w.B.Sub(g.B.Mul(lr))}
}

func ValLoss(p int, w Params, y jit.Array) jit.Array { return mse(p, w, y) }

// OneStep predicts the value after hist from its last p values.
func OneStep(p int, w Params, hist jit.Array) jit.Array {
	n := hist.Shape()[0]
	return hist.Slice([]int{n - p}, []int{n}).Mul(w.W).Sum().Add(w.B)
}

// ForecastLoop rolls the model forward horizon steps, the obvious way.
func ForecastLoop(p int, w Params, hist jit.Array) jit.Array {
	n := hist.Shape()[0]
	win := hist.Slice([]int{n - p}, []int{n})
	out := make([]jit.Array, 0, horizon)
	for h := 0; h < horizon; h++ { // want unrolledloop
		next := win.Mul(w.W).Sum().Add(w.B).Reshape(1)
		win = jit.Concatenate(0, win.Slice([]int{1}, []int{p}), next)
		out = append(out, next)
	}
	return jit.Concatenate(0, out...)
}

// ForecastScan is the same recursion as one scan.
func ForecastScan(p int, w Params, hist jit.Array) jit.Array {
	n := hist.Shape()[0]
	_, ys := jit.ScanN(func(win jit.Array) (jit.Array, jit.Array) {
		next := win.Mul(w.W).Sum().Add(w.B).Reshape(1)
		return jit.Concatenate(0, win.Slice([]int{1}, []int{p}), next), next.Reshape()
	}, hist.Slice([]int{n - p}, []int{n}), horizon)
	return ys
}

// HuberLoss clips large residuals (an experiment; used eagerly through Grad).
func HuberLoss(w Params, y jit.Array) jit.Array {
	x, t := design(2, y)
	r := x.MatMul(w.W).Add(w.B).Sub(t)
	if r.Abs().MaxReduce().Item() > 1.5 { // want tracedbool
		r = r.Mul(0.5)
	}
	return r.Mul(r).Mean()
}

func series() []float32 {
	y := make([]float32, nTotal)
	seed := uint32(3)
	for t := range y {
		seed = seed*1664525 + 1013904223
		e := float64(seed>>8)/float64(1<<24) - 0.5
		v := 0.3*e + 0.8*math.Sin(2*math.Pi*float64(t)/12)
		if t >= 2 {
			v += 0.5*float64(y[t-1]) - 0.3*float64(y[t-2])
		}
		y[t] = float32(v)
	}
	return y
}

func zeros(p int) Params { return Params{jit.Zeros(jit.Float32, p), jit.Scalar[float32](0)} }

func main() {
	raw := series()
	yTrain, yAll := jit.FromSlice(raw[:nTrain]), jit.FromSlice(raw)
	yVal := jit.FromSlice(raw[nTrain-maxP:])
	step := jit.Jit(Step, jit.StaticArgnums(0))

	best, bestErr := 0, math.Inf(1)
	fitted := map[int]Params{}
	for _, p := range []int{1, 2, 3, 4, 6, 8} {
		w := zeros(p)
		var loss jit.Array
		val, prev := math.Inf(1), math.Inf(1)
		for it := 0; it < 300; it++ {
			w, loss = step.Call(p, w, yTrain)
			if it%25 == 24 {
				val = jit.Jit(ValLoss, jit.StaticArgnums(0)).Call(p, w, yVal).Item()
				if val > prev-1e-5 {
					break // early stop on the validation curve
				}
				prev = val
			}
		}
		fitted[p] = w
		fmt.Printf("AR(%d): train %.4f  val %.4f\n", p, loss.Item(), val)
		if val < bestErr-1e-4 {
			best, bestErr = p, val
		}
	}
	fmt.Println("chosen order:", best)

	// Fine-tune the chosen order with a decaying learning rate.
	tune := jit.Jit(StepLR, jit.StaticArgnums(0, 1))
	w := fitted[best]
	for epoch := 0; epoch < 12; epoch++ {
		lr := 0.1 / (1 + 0.5*float64(epoch))
		w = tune.Call(best, lr, w, yTrain) // want staticargs
	}

	// Backtests: an expanding window (the whole history so far) and a
	// sliding window of fixed length.
	one := jit.Jit(OneStep, jit.StaticArgnums(0))
	var expSE, slideSE float64
	for origin := nTrain; origin < nTrain+20; origin++ {
		truth := float64(raw[origin])
		e := one.Call(best, w, yAll.Slice([]int{0}, []int{origin})).Item() - truth // want shapechurn
		s := one.Call(best, w, yAll.Slice([]int{origin - 64}, []int{origin})).Item() - truth
		expSE, slideSE = expSE+e*e, slideSE+s*s
	}
	fmt.Printf("backtest rmse: expanding %.4f sliding %.4f\n", math.Sqrt(expSE/20), math.Sqrt(slideSE/20))

	hist := yAll.Slice([]int{nTotal - 64}, []int{nTotal})
	a := jit.Jit(ForecastLoop, jit.StaticArgnums(0)).Call(best, w, hist)
	b := jit.Jit(ForecastScan, jit.StaticArgnums(0)).Call(best, w, hist)
	fmt.Printf("forecast h=1 %.3f h=%d %.3f (loop/scan diff %.2g)\n", b.Float32s()[0], horizon, b.Float32s()[horizon-1], a.Sub(b).Abs().MaxReduce().Item())

	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("huber experiment failed:", r.(*jit.Error).Kind)
			}
		}()
		huber := jit.Jit(jit.Grad[func(Params, jit.Array) Params](HuberLoss))
		huber.Call(fitted[2], yTrain)
	}()
}
