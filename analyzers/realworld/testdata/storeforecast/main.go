// Command storeforecast fits one small demand model per store, all stores
// at once: per-store gradients come from a vectorized gradient of a
// per-store loss, so each store keeps its own parameters. Models implement
// a common interface and the training and scoring helpers are generic over
// it. Stores are scored with the pinball loss at the 90th percentile and
// with the mean absolute percentage error (MAPE), and the fitted models are
// backtested week by week over the last year.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	stores   = 4
	weeks    = 52
	harmonic = 3
)

type Model interface {
	Predict(t jit.Array) jit.Array
}

// Seasonal is a level, a trend and a few yearly harmonics; t is in years.
type Seasonal struct {
	Level, Trend, Sin, Cos jit.Array // [], [], [harmonic], [harmonic]
}

func (m Seasonal) Predict(t jit.Array) jit.Array {
	y := m.Level.Add(t.Mul(m.Trend))
	for h := 1; h <= harmonic; h++ {
		a := t.Mul(2 * math.Pi * float64(h))
		s := m.Sin.Slice([]int{h - 1}, []int{h}).Reshape()
		c := m.Cos.Slice([]int{h - 1}, []int{h}).Reshape()
		y = y.Add(a.Sin().Mul(s)).Add(a.Cos().Mul(c))
	}
	return y
}

func pinball[M Model](m M, t, y jit.Array) jit.Array {
	e := y.Sub(m.Predict(t))
	return jit.Where(e.Gt(0), e.Mul(0.9), e.Mul(-0.1)).Mean()
}

func mape[M Model](m M, t, y jit.Array) jit.Array {
	e := y.Sub(m.Predict(t))
	return jit.Where(y.Ne(0), e.Div(y).Abs(), 0).Mean() // a wherenan finding (checked by the wherenan fixtures, not by this oracle)
}

func mapeSafe[M Model](m M, t, y jit.Array) jit.Array {
	e := y.Sub(m.Predict(t))
	nz := y.Ne(0)
	return jit.Where(nz, e.Div(jit.Where(nz, y, 1)).Abs(), 0).Mean()
}

func squared[M Model](m M, t, y jit.Array) jit.Array {
	e := y.Sub(m.Predict(t))
	return e.Mul(e).Mean()
}

type loss[M Model] func(M, jit.Array, jit.Array) jit.Array

// perStoreGrad maps the gradient of a per-store loss over the stores.
func perStoreGrad[M Model](l loss[M]) func(M, jit.Array, jit.Array) M {
	return jit.Vmap(jit.Grad[func(M, jit.Array, jit.Array) M](l), jit.InAxes(0, jit.NotMapped, 0))
}

func sgd(m, g Seasonal, lr float64) Seasonal {
	return Seasonal{m.Level.Sub(g.Level.Mul(lr)), m.Trend.Sub(g.Trend.Mul(lr)),
		m.Sin.Sub(g.Sin.Mul(lr)), m.Cos.Sub(g.Cos.Mul(lr))}
}

// backtest forecasts each week from the model and accumulates the error.
func backtest[M Model](m M, y jit.Array) jit.Array {
	total := jit.Zeros(jit.Float32)
	for w := 0; w < weeks; w++ { // want unrolledloop
		pred := m.Predict(jit.Scalar(float32(w) / weeks))
		actual := y.Slice([]int{w}, []int{w + 1}).Reshape()
		total = total.Add(pred.Sub(actual).Abs())
	}
	return total.Div(weeks)
}

func demand() jit.Array {
	v := make([]float32, 0, stores*weeks)
	for s := 0; s < stores; s++ {
		for w := 0; w < weeks; w++ {
			x := 20 + 5*float64(s) + 0.05*float64(w) + 6*math.Sin(2*math.Pi*float64(w)/weeks+float64(s))
			if s == 3 && w%13 == 0 {
				x = 0 // closed for stock-taking
			}
			v = append(v, float32(x))
		}
	}
	return jit.FromSlice(v, stores, weeks)
}

func main() {
	y := demand()
	t := jit.Arange(weeks, jit.Float32).Div(weeks)
	m := Seasonal{jit.Full(20, jit.Float32, stores), jit.Zeros(jit.Float32, stores),
		jit.Zeros(jit.Float32, stores, harmonic), jit.Zeros(jit.Float32, stores, harmonic)}

	g := perStoreGrad[Seasonal](squared[Seasonal])
	step := jit.Jit(func(m Seasonal, t, y jit.Array) Seasonal { return sgd(m, g(m, t, y), 0.2) })
	for it := 0; it < 400; it++ {
		m = step.Call(m, t, y)
	}
	fmt.Println("levels:", m.Level, "trends:", m.Trend)

	for _, c := range []struct {
		name string
		l    loss[Seasonal]
	}{{"pinball", pinball[Seasonal]}, {"mape", mape[Seasonal]}, {"mape-safe", mapeSafe[Seasonal]}} {
		score := jit.Vmap(c.l, jit.InAxes(0, jit.NotMapped, 0))(m, t, y)
		grad := perStoreGrad(c.l)(m, t, y)
		fmt.Printf("%-9s per store %v\n          dLevel %v\n", c.name, score, grad.Level)
	}

	bt := jit.Jit(jit.Vmap(backtest[Seasonal]))
	fmt.Println("backtest MAE per store:", bt.Call(m, y))
}
