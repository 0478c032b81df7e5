// Command forecast predicts the next value of a series with an
// autoregressive model over a lookback window. The rolling forecast slices
// a window of fixed width at a moving offset (one shape); the warm-up
// variant grows the window until it reaches the lookback (a bounded number
// of shapes); the expanding-window baseline averages everything seen so
// far (one shape per step).
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

type config struct {
	Lookback int
	Horizon  int
}

// predict weighs the lags of the window with decaying coefficients.
func predict(window jit.Array) jit.Array {
	n := window.Shape()[0]
	acc := jit.Zeros(jit.Float32)
	for k := 0; k < n; k++ {
		lag := window.Slice([]int{n - 1 - k}, []int{n - k}).Reshape()
		acc = acc.Add(lag.Mul(math.Pow(0.7, float64(k+1))))
	}
	return acc.Div(0.7 * (1 - math.Pow(0.7, float64(n))) / 0.3)
}

// rollout feeds each prediction back into the window, steps times.
func rollout(window jit.Array, steps int) jit.Array {
	n := window.Shape()[0]
	for range steps { // want unrolledloop
		next := predict(window).Reshape(1)
		window = jit.Concatenate(0, window.Slice([]int{1}, []int{n}), next)
	}
	return window
}

// baseline is the mean of the history.
func baseline(history jit.Array) jit.Array { return history.Mean() }

func series(n int) jit.Array {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(math.Sin(float64(i)/5)) + float32(i%4)*0.05
	}
	return jit.FromSlice(v, n)
}

func main() {
	cfg := config{Lookback: 8, Horizon: 40}
	y := series(cfg.Lookback + cfg.Horizon)
	f := jit.Jit(predict)
	mse := 0.0
	for t := cfg.Lookback; t < cfg.Lookback+cfg.Horizon; t++ {
		win := y.Slice([]int{t - cfg.Lookback}, []int{t})
		d := f.Call(win).Item() - y.Slice([]int{t}, []int{t + 1}).Sum().Item()
		mse += d * d
	}
	fmt.Printf("rolling: mse %.4f, compiles %d\n", mse/float64(cfg.Horizon), f.Stats().Compiles)

	g := jit.Jit(predict)
	for t := 1; t < cfg.Lookback+cfg.Horizon; t++ {
		win := y.Slice([]int{max(0, t-cfg.Lookback)}, []int{t})
		g.Call(win)
	}
	fmt.Println("warm-up: compiles", g.Stats().Compiles)

	r := jit.Jit(func(w jit.Array) jit.Array { return rollout(w, cfg.Horizon) })
	fmt.Println("rollout:", r.Call(y.Slice([]int{0}, []int{cfg.Lookback})))

	b := jit.Jit(baseline)
	for t := 1; t <= cfg.Horizon; t++ {
		b.Call(y.Slice([]int{0}, []int{t})) // want shapechurn
	}
	fmt.Println("expanding: compiles", b.Stats().Compiles)
}
