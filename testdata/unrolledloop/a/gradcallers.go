package a

import "github.com/jitlint/jitlint/jit"

// A loss differentiated by jit.Grad or ValueAndGrad is called with what
// the calls of the gradient pass, of the same shapes: a loop over the lags
// of coefficients that a jitted step feeds back unchanged in shape runs as
// many times as there are lags, five here, whatever the data.

func gcLoss(phi, r jit.Array) jit.Array {
	p := phi.Shape()[0]
	acc := r.Sum()
	for k := 0; k < p; k++ { // not reported: five lags in every trace
		acc = acc.Add(phi.Slice([]int{k}, []int{k + 1}).Sum().Mul(r.Sum()))
	}
	return acc
}

func gradCallers(r jit.Array) {
	step := jit.Jit(func(phi, r jit.Array) (jit.Array, jit.Array) {
		loss, g := jit.ValueAndGrad[func(jit.Array, jit.Array) (jit.Array, jit.Array)](gcLoss)(phi, r)
		return loss, phi.Sub(g.Mul(0.1))
	})
	phi := jit.Zeros(jit.Float32, 5)
	for range 10 {
		_, phi = step.Call(phi, r)
	}
}
