// Command windowstats computes rolling-window statistics of a few synthetic
// sensor series: rolling means and standard deviations at the window sizes
// and strides of a configuration table, autocorrelations at several lags,
// and a streaming z-score for the newest sample.
package main

import (
	"fmt"
	"log"
	"math"
	"os"

	"github.com/jitlint/jitlint/jit"
)

// WindowConfig is one rolling statistic to report.
type WindowConfig struct {
	Name   string
	Window int
	Stride int
}

var windows = []WindowConfig{
	{"15min", 4, 1},
	{"hour", 8, 2},
	{"shift", 16, 4},
	{"day", 32, 8},
}

const (
	seriesLen = 128
	maxLag    = 40
)

// makeSeries returns a deterministic series: a daily cycle, a trend and a
// little pseudo-noise.
func makeSeries(seed int) []float32 {
	out := make([]float32, seriesLen)
	for i := range out {
		t := float64(i)
		noise := math.Sin(t*12.9898+float64(seed)*78.233) * 0.3
		out[i] = float32(math.Sin(2*math.Pi*t/32+float64(seed)) + 0.01*t*float64(seed%3) + noise)
	}
	return out
}

// rollingSum sums a [k, n] array over sliding windows of w along axis 1,
// giving [k, n-w+1].
func rollingSum(xs jit.Array, w int) jit.Array {
	k, n := xs.Shape()[0], xs.Shape()[1]
	m := n - w + 1
	acc := jit.Zeros(jit.Float32, k, m)
	for off := 0; off < w; off++ {
		acc = acc.Add(xs.Slice([]int{0, off}, []int{k, off + m}))
	}
	return acc
}

// everyNth keeps every stride-th column of a [k, m] array.
func everyNth(xs jit.Array, stride int) jit.Array {
	k, m := xs.Shape()[0], xs.Shape()[1]
	keep := m / stride * stride
	return xs.Slice([]int{0, 0}, []int{k, keep}).Reshape(k, keep/stride, stride).
		Slice([]int{0, 0, 0}, []int{k, keep / stride, 1}).Reshape(k, keep/stride)
}

// RollingStats returns the rolling mean and standard deviation of x over
// windows of w samples, sampled every stride windows, as a [2, m] array.
func RollingStats(w, stride int, x jit.Array) jit.Array {
	n := x.Shape()[0]
	xs := jit.Concatenate(0, x.Reshape(1, n), x.Mul(x).Reshape(1, n))
	sums := rollingSum(xs, w).Div(float64(w))
	mean := sums.Slice([]int{0, 0}, []int{1, n - w + 1})
	sq := sums.Slice([]int{1, 0}, []int{2, n - w + 1})
	std := sq.Sub(mean.Mul(mean)).Max(0).Sqrt()
	return everyNth(jit.Concatenate(0, mean, std), stride)
}

// lagCorr is the correlation of x with itself lag samples later.
func lagCorr(x jit.Array, lag int) jit.Array {
	n := x.Shape()[0]
	c := x.Sub(x.Mean())
	a := c.Slice([]int{0}, []int{n - lag})
	b := c.Slice([]int{lag}, []int{n})
	return a.Mul(b).Sum().Div(c.Mul(c).Sum())
}

// LagCorr is one autocorrelation coefficient.
func LagCorr(lag int, x jit.Array) jit.Array { return lagCorr(x, lag) }

// Autocorrelation returns the coefficients at lags 1..lags.
func Autocorrelation(lags int, x jit.Array) jit.Array {
	out := make([]jit.Array, 0, lags)
	for lag := 1; lag <= lags; lag++ { // want unrolledloop
		out = append(out, lagCorr(x, lag).Reshape(1))
	}
	return jit.Concatenate(0, out...)
}

// ZScore is the z-score of the last sample against the whole window.
func ZScore(x jit.Array) jit.Array {
	n := x.Shape()[0]
	mu := x.Mean()
	sd := x.Sub(mu).Pow(2).Mean().Sqrt().Max(1e-6)
	return x.Slice([]int{n - 1}, []int{n}).Reshape().Sub(mu).Div(sd)
}

// CountAnomalies counts samples more than three deviations from the mean
// and returns their share of the window.
func CountAnomalies(x jit.Array) jit.Array {
	z := x.Sub(x.Mean()).Div(x.Sub(x.Mean()).Pow(2).Mean().Sqrt().Max(1e-6))
	flagged := z.Abs().Gt(3).Astype(jit.Int32).Sum()
	if flagged.Int() == 0 { // want tracedbool
		return jit.Zeros(jit.Float32)
	}
	return flagged.Astype(jit.Float32).Div(float64(x.Shape()[0]))
}

func main() {
	logger := log.New(os.Stdout, "windowstats: ", 0)
	series := make([]jit.Array, 5)
	for i := range series {
		series[i] = jit.FromSlice(makeSeries(i + 1))
	}

	rolling := jit.Jit(RollingStats, jit.StaticArgnums(0, 1))
	for i, x := range series {
		for _, cfg := range windows {
			st := rolling.Call(cfg.Window, cfg.Stride, x)
			if i == 0 {
				vals := st.Float32s()
				m := st.Shape()[1]
				fmt.Printf("series 0 %-6s window=%2d stride=%d: %d points, last mean %.3f std %.3f\n",
					cfg.Name, cfg.Window, cfg.Stride, m, vals[m-1], vals[2*m-1])
			}
		}
	}
	fmt.Printf("rolling stats: %d calls, %d compiles\n", len(series)*len(windows), rolling.Stats().Compiles)

	acf := jit.Jit(LagCorr, jit.StaticArgnums(0))
	best, bestR := 0, -2.0
	for lag := 1; lag <= 12; lag++ {
		r := acf.Call(lag, series[0]).Item() // want staticargs
		if r > bestR {
			best, bestR = lag, r
		}
	}
	fmt.Printf("strongest short lag: %d (r=%.3f), %d compiles\n", best, bestR, acf.Stats().Compiles)

	all := jit.Jit(Autocorrelation, jit.StaticArgnums(0))
	coeffs := all.Call(maxLag, series[1]).Float32s()
	fmt.Printf("acf of series 1 at lags 30..34: %.3f\n", coeffs[29:34])

	zscore := jit.Jit(ZScore)
	var history []float32
	stream := makeSeries(9)
	for t := 0; t < 10; t++ {
		history = append(history, stream[t])
		if len(history) < 3 {
			continue
		}
		z := zscore.Call(jit.FromSlice(history)) // want shapechurn
		fmt.Printf("tick %d: z=%.2f\n", t, z.Item())
	}

	ring := make([]float32, 32)
	copy(ring, stream[:32])
	for t := 32; t < 48; t++ {
		copy(ring, ring[1:])
		ring[len(ring)-1] = stream[t]
		z := zscore.Call(jit.FromSlice(ring)).Item()
		if math.Abs(z) > 1.5 {
			logger.Printf("tick %d: unusual sample %.3f (z=%.2f)", t, stream[t], z)
		}
	}

	anomalies := jit.Jit(CountAnomalies)
	fmt.Println("anomaly share:", anomalies.Call(series[2]))
}
