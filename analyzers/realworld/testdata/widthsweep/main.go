// Command widthsweep runs a small hyperparameter sweep over the hidden width
// of a two-layer regression network fitted to y = sin(3x). Each width is
// trained for a fixed number of full-batch gradient steps with early stopping;
// afterwards a network is grown one unit at a time from the best width's
// neighbourhood to see how the loss responds, and finally the training loop
// is fused into a single compiled program.
package main

import (
	"fmt"
	"math"

	"corpus/widthsweep/fit"

	"github.com/jitlint/jitlint/jit"
)

// MLP is a 1-hidden-layer network.
type MLP struct {
	W1, B1, W2 jit.Array
}

const nPoints = 32

func data() (x, y jit.Array) {
	xs := make([]float32, nPoints)
	ys := make([]float32, nPoints)
	for i := range xs {
		xs[i] = float32(-1 + 2*float64(i)/float64(nPoints-1))
		ys[i] = float32(math.Sin(3 * float64(xs[i])))
	}
	return jit.FromSlice(xs, nPoints, 1), jit.FromSlice(ys, nPoints, 1)
}

func initMLP(width int) MLP {
	w1 := make([]float32, width)
	b1 := make([]float32, width)
	w2 := make([]float32, width)
	for i := 0; i < width; i++ {
		w1[i] = float32(math.Cos(float64(i)*1.3) * 2)
		b1[i] = float32(math.Sin(float64(i) * 0.7))
		w2[i] = float32(math.Sin(float64(i)*2.1) / math.Sqrt(float64(width)))
	}
	return MLP{jit.FromSlice(w1, 1, width), jit.FromSlice(b1, width), jit.FromSlice(w2, width, 1)}
}

func mse(p MLP, x, y jit.Array) jit.Array {
	h := x.MatMul(p.W1).Add(p.B1).Tanh()
	return h.MatMul(p.W2).Sub(y).Pow(2).Mean()
}

var mseGrad = jit.ValueAndGrad[func(MLP, jit.Array, jit.Array) (jit.Array, MLP)](mse)

// step is one gradient step; the step size is scaled by the width as in the
// mean-field parameterization.
func step(width int, p MLP, x, y jit.Array) (MLP, jit.Array) {
	l, g := mseGrad(p, x, y)
	lr := 0.5 / math.Sqrt(float64(width))
	return MLP{p.W1.Sub(g.W1.Mul(lr)), p.B1.Sub(g.B1.Mul(lr)), p.W2.Sub(g.W2.Mul(lr))}, l
}

func main() {
	x, y := data()
	train := jit.Jit(step, jit.StaticArgnums(0))
	best, bestLoss := 0, math.Inf(1)
	for _, width := range []int{8, 16, 32} {
		p := initMLP(width)
		var l jit.Array
		n := 0
		for n = 0; n < 25; n++ {
			p, l = train.Call(width, p, x, y)
			if fit.Converged(l, 2e-3) {
				break
			}
		}
		fmt.Printf("width %2d: loss %.5f after %d steps\n", width, l.Item(), n)
		if l.Item() < bestLoss {
			best, bestLoss = width, l.Item()
		}
	}
	s := train.Stats()
	fmt.Printf("sweep: best width %d, compiles=%d hits=%d\n", best, s.Compiles, s.Hits)

	probe := jit.Jit(mse)
	for w := best - 3; w <= best+3; w++ {
		fmt.Printf("grown to %d units: initial loss %.4f\n", w, probe.Call(initMLP(w), x, y).Item()) // want shapechurn
	}

	fused := jit.Jit(func(p MLP, x, y jit.Array) MLP {
		l, g := mseGrad(p, x, y)
		for !fit.Converged(l, 2e-3) { // want tracedbool
			p = MLP{p.W1.Sub(g.W1.Mul(0.1)), p.B1.Sub(g.B1.Mul(0.1)), p.W2.Sub(g.W2.Mul(0.1))}
			l, g = mseGrad(p, x, y)
		}
		return p
	})
	fmt.Println("fused training:", fused.Call(initMLP(best), x, y).W2.Shape())
}
