// Command patience fits a small regression with early stopping: the
// trainer keeps the best loss on the host and stops after a few steps
// without improvement; a second port moved the bookkeeping into the jitted
// step, where the loss is a tracer.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// params is the model: a weight vector and a bias.
type params struct {
	W jit.Array
	B jit.Array
}

func loss(p params, x, y jit.Array) jit.Array {
	d := x.MatMul(p.W).Add(p.B).Sub(y)
	return d.Mul(d).Mean()
}

var grad = jit.Grad[func(params, jit.Array, jit.Array) params](loss)

func sgd(p params, x, y jit.Array) (params, jit.Array) {
	g := grad(p, x, y)
	next := params{W: p.W.Sub(g.W.Mul(0.05)), B: p.B.Sub(g.B.Mul(0.05))}
	return next, loss(next, x, y)
}

// earlyStopper remembers the best loss and how long ago it was seen.
type earlyStopper struct {
	best     float64
	patience int
	waited   int
}

// improved records a loss and reports whether it beat the best one.
func (e *earlyStopper) improved(l float64) bool {
	if l < e.best-1e-3 {
		e.best, e.waited = l, 0
		return true
	}
	e.waited++
	return false
}

func (e *earlyStopper) done() bool { return e.waited >= e.patience }

// stopper is the port's global early-stopping state.
var stopper = &earlyStopper{best: 1e9, patience: 3}

// sgdTracked is sgd that keeps the best parameters itself.
func sgdTracked(p params, x, y jit.Array) (params, jit.Array) {
	next, l := sgd(p, x, y)
	if stopper.improved(l.Item()) { // want tracedbool
		return next, l
	}
	return p, l
}

func data() (jit.Array, jit.Array) {
	xs := make([]float32, 16*3)
	ys := make([]float32, 16)
	for i := range 16 {
		for j := range 3 {
			xs[i*3+j] = float32((i+j)%5) / 5
		}
		ys[i] = xs[i*3] - 2*xs[i*3+1] + 0.5
	}
	return jit.FromSlice(xs, 16, 3), jit.FromSlice(ys, 16, 1)
}

func main() {
	x, y := data()
	p := params{W: jit.Zeros(jit.Float32, 3, 1), B: jit.Zeros(jit.Float32, 1)}
	step := jit.Jit(sgd)
	es := &earlyStopper{best: 1e9, patience: 3}
	best := p
	for epoch := 0; epoch < 500; epoch++ {
		next, l := step.Call(p, x, y)
		if es.improved(l.Item()) {
			best = next
		}
		if es.done() {
			fmt.Println("stopped at epoch", epoch)
			break
		}
		p = next
	}
	fmt.Println("best loss", es.best, "bias", best.B)
	jit.Jit(sgdTracked).Call(best, x, y)
}
