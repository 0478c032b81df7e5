// Package indicators has technical indicators over price arrays, written to
// be traced: window lengths and step counts are plain Go ints.
package indicators

import "github.com/jitlint/jitlint/jit"

// SMA returns the simple moving averages of x over window days
// (len(x)-window+1 values), summing shifted slices.
func SMA(x jit.Array, window int) jit.Array {
	n := x.Shape()[0]
	acc := jit.Zeros(x.Dtype(), n-window+1)
	for k := 0; k < window; k++ {
		acc = acc.Add(x.Slice([]int{k}, []int{n - window + 1 + k}))
	}
	return acc.Div(float64(window))
}

// EMA runs an exponential moving average over x with a scan.
func EMA(x jit.Array, alpha float64) jit.Array {
	first := x.Slice([]int{0}, []int{1}).Reshape()
	_, ys := jit.Scan(func(m, xt jit.Array) (jit.Array, jit.Array) {
		m = m.Add(xt.Sub(m).Mul(alpha))
		return m, m
	}, first, x)
	return ys
}

// LogReturns returns log(p[t]/p[t-1]).
func LogReturns(p jit.Array) jit.Array {
	n := p.Shape()[0]
	return p.Slice([]int{1}, []int{n}).Div(p.Slice([]int{0}, []int{n - 1})).Log()
}

// ZScore of the last value of x against the whole window.
func ZScore(x jit.Array) jit.Array {
	n := x.Shape()[0]
	mu := x.Mean()
	sd := x.Sub(mu).Pow(2).Mean().Sqrt().Add(1e-8)
	return x.Slice([]int{n - 1}, []int{n}).Reshape().Sub(mu).Div(sd)
}

// Momentum is the lookback-day log return ending at the last price.
func Momentum(p jit.Array, lookback int) jit.Array {
	n := p.Shape()[0]
	return p.Slice([]int{n - 1}, []int{n}).Div(p.Slice([]int{n - 1 - lookback}, []int{n - lookback})).Log().Reshape()
}

// MaskedSharpe is the annualised Sharpe ratio of the returns where mask is 1.
func MaskedSharpe(r, mask jit.Array) jit.Array {
	cnt := mask.Sum().Max(2)
	mu := r.Mul(mask).Sum().Div(cnt)
	v := r.Sub(mu).Pow(2).Mul(mask).Sum().Div(cnt.Sub(1))
	return mu.Div(v.Sqrt().Add(1e-9)).Mul(15.874)
}
