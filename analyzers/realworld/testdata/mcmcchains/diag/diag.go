// Package diag computes MCMC convergence diagnostics on the device.
package diag

import "github.com/jitlint/jitlint/jit"

// MaxLag is the largest lag of the autocorrelation estimate.
const MaxLag = 32

// RHat is the Gelman-Rubin potential scale reduction of draws [chains, n].
func RHat(draws jit.Array) jit.Array {
	c, n := draws.Shape()[0], draws.Shape()[1]
	means := draws.Mean(1)
	between := means.Sub(means.Mean()).Pow(2).Sum().Mul(float64(n) / float64(c-1))
	within := draws.Sub(means.Reshape(c, 1)).Pow(2).Sum(1).Div(n - 1).Mean()
	varHat := within.Mul(float64(n-1) / float64(n)).Add(between.Div(n))
	return varHat.Div(within).Sqrt()
}

// Autocorr estimates the autocorrelation of draws [chains, n] at lags
// 1..MaxLag, averaged over chains.
func Autocorr(draws jit.Array) jit.Array {
	c, n := draws.Shape()[0], draws.Shape()[1]
	centered := draws.Sub(draws.Mean(1).Reshape(c, 1))
	variance := centered.Pow(2).Mean(1)
	rhos := make([]jit.Array, 0, MaxLag)
	for lag := 1; lag <= MaxLag; lag++ {
		a := centered.Slice([]int{0, lag}, []int{c, n})
		b := centered.Slice([]int{0, 0}, []int{c, n - lag})
		rho := a.Mul(b).Sum(1).Div(n).Div(variance).Mean()
		rhos = append(rhos, rho.Reshape(1))
	}
	return jit.Concatenate(0, rhos...)
}

// ESS is the effective sample size from the initial positive sequence of
// autocorrelations, for draws [chains, n].
func ESS(draws jit.Array) jit.Array {
	c, n := draws.Shape()[0], draws.Shape()[1]
	rho := Autocorr(draws)
	tau := rho.Max(0).Sum().Mul(2).Add(1)
	return tau.Div(float64(c * n)).Pow(-1)
}
