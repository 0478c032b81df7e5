// Package portfolio holds the small linear-algebra helpers the optimiser uses.
package portfolio

import "github.com/jitlint/jitlint/jit"

// Covariance returns the sample covariance of a [T, N] matrix of returns.
func Covariance(r jit.Array) jit.Array {
	t, n := r.Shape()[0], r.Shape()[1]
	centred := r.Sub(r.Mean(0).Reshape(1, n))
	return centred.Transpose().MatMul(centred).Div(float64(t - 1))
}

// ProjectSimplex projects w onto {w >= 0, sum(w) = 1} by bisecting on the
// shift tau for iters rounds.
func ProjectSimplex(w jit.Array, iters int) jit.Array {
	lo := w.MinReduce().Sub(1)
	hi := w.MaxReduce()
	for i := 0; i < iters; i++ {
		tau := lo.Add(hi).Mul(0.5)
		over := w.Sub(tau).Max(0).Sum().Gt(1)
		lo = jit.Where(over, tau, lo)
		hi = jit.Where(over, hi, tau)
	}
	return w.Sub(lo.Add(hi).Mul(0.5)).Max(0)
}

// Renormalise is the cheap projection: clip shorts and rescale to one.
func Renormalise(w jit.Array) jit.Array {
	w = w.Max(0)
	return w.Div(w.Sum().Add(1e-8))
}
