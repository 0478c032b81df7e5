// Command lossfactory builds loss functions with a factory that closes over
// a config: a regularised loss with a few penalty terms, a Taylor-series
// penalty of high order, and a verbose loss that prints when it is built.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type lossConfig struct {
	Terms   []float64
	Order   int
	Verbose bool
}

// makeLoss returns the mean squared error plus cfg.Terms weighted powers of
// the weights.
func makeLoss(cfg lossConfig) func(w, x, y jit.Array) jit.Array {
	return func(w, x, y jit.Array) jit.Array {
		d := x.Mul(w).Sub(y)
		l := d.Mul(d).Mean()
		for p, c := range cfg.Terms {
			l = l.Add(w.Abs().Pow(float64(p + 1)).Sum().Mul(c))
		}
		if cfg.Verbose {
			fmt.Println("building loss with", len(cfg.Terms), "terms") // want traceeffect
		}
		return l
	}
}

// makePenalty returns exp(|w|)-1 by its Taylor series to cfg.Order terms.
func makePenalty(cfg lossConfig) func(w jit.Array) jit.Array {
	return func(w jit.Array) jit.Array {
		a := w.Abs()
		term, sum := a, a
		for n := 2; n <= cfg.Order; n++ { // want unrolledloop
			term = term.Mul(a).Div(float64(n))
			sum = sum.Add(term)
		}
		return sum.Sum()
	}
}

func main() {
	x := jit.FromSlice([]float32{1, 2, 3})
	y := x.Mul(2)
	w := jit.Full(1.5, jit.Float32, 3)
	quiet := jit.Jit(makeLoss(lossConfig{Terms: []float64{0.01, 0.001}}))
	loud := jit.Jit(makeLoss(lossConfig{Terms: []float64{0.1}, Verbose: true}))
	pen := jit.Jit(makePenalty(lossConfig{Order: 40}))
	for range 3 {
		fmt.Println(quiet.Call(w, x, y).Item(), loud.Call(w, x, y).Item(), pen.Call(w).Item())
	}
}
