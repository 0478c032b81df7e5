// Command sensorscore scores a synthetic two-channel vibration trace for
// anomalies. It cuts each channel into overlapping windows, smooths them
// with a short moving average, computes the energy and the lag
// autocorrelation profile of every window, and finally measures the energy
// of each burst where the signal stays above the alarm threshold.
package main

import (
	"fmt"
	"math"

	"corpus/seqdata"

	"github.com/jitlint/jitlint/jit"
)

const (
	traceLen = 400
	winSize  = 64
	stride   = 32
	maxLag   = 40
	alarm    = 1.5
)

func synthTrace(phase float64) []float32 {
	starts := []int{20, 70, 115, 160, 205, 250, 300, 350}
	lens := []int{5, 7, 9, 11, 13, 15, 17, 19}
	xs := make([]float32, traceLen)
	for i := range xs {
		xs[i] = float32(0.4 * math.Sin(float64(i)*0.3+phase))
	}
	for b, s := range starts {
		for i := s; i < s+lens[b] && i < traceLen; i++ {
			sign := float64(1 - 2*(i%2))
			xs[i] = float32(sign * (2 + 0.2*math.Sin(float64(i)+phase)))
		}
	}
	return xs
}

func windowStats(x, mask jit.Array) (jit.Array, jit.Array) {
	n := mask.Sum().Max(1)
	mean := x.Mul(mask).Sum().Div(n)
	energy := x.Sub(mean).Mul(mask).Pow(2).Sum().Div(n)
	return mean, energy
}

func smoothWindow(x jit.Array, width int) jit.Array {
	return seqdata.MovingAverage(x, width)
}

func autocorr(x, mask jit.Array) jit.Array {
	xc := x.Sub(x.Mul(mask).Sum().Div(mask.Sum().Max(1))).Mul(mask)
	denom := xc.Pow(2).Sum().Add(1e-6)
	var lags []jit.Array
	for lag := 1; lag <= maxLag; lag++ { // want unrolledloop
		a := xc.Slice([]int{0}, []int{winSize - lag})
		b := xc.Slice([]int{lag}, []int{winSize})
		lags = append(lags, a.Mul(b).Sum().Div(denom).Reshape(1))
	}
	return jit.Concatenate(0, lags...)
}

func burstEnergy(seg jit.Array) jit.Array {
	return seg.Pow(2).Mean().Sqrt()
}

func burstEnergyMasked(seg, mask jit.Array) jit.Array {
	return seg.Pow(2).Mul(mask).Sum().Div(mask.Sum()).Sqrt()
}

func peakLag(profile []float32) (int, float32) {
	best, at := float32(-2), 0
	for i, v := range profile {
		if v > best {
			best, at = v, i+1
		}
	}
	return at, best
}

func main() {
	stats := jit.Jit(windowStats)
	smooth := jit.Jit(smoothWindow, jit.StaticArgnums(1))
	acorr := jit.Jit(autocorr)
	widths := map[string]int{"accel": 3, "gyro": 5}
	channels := map[string][]float32{"accel": synthTrace(0), "gyro": synthTrace(1.1)}

	for w, start := range seqdata.Windows(channels["accel"], winSize, stride) {
		for _, name := range []string{"accel", "gyro"} {
			raw := channels[name][w*stride : w*stride+len(start)]
			sm := smooth.Call(jit.FromSlice(raw), widths[name])
			x, mask, err := jit.PadTo(sm, winSize)
			if err != nil {
				panic(err)
			}
			mean, energy := stats.Call(x, mask)
			lag, r := peakLag(acorr.Call(x, mask).Float32s())
			fmt.Printf("win %2d %-5s n=%2d mean=%+.3f energy=%.3f peak lag %2d (r=%.2f)\n",
				w, name, len(raw), mean.Item(), energy.Item(), lag, r)
		}
	}

	raw := jit.Jit(burstEnergy)
	bucketed := jit.Jit(burstEnergyMasked)
	for i, seg := range seqdata.Segments(channels["accel"], alarm) {
		e1 := raw.Call(jit.FromSlice(seg)) // want shapechurn
		b := seqdata.Bucket(len(seg), []int{8, 16, 32})
		vals, mask := seqdata.Pad(seg, b)
		e2 := bucketed.Call(jit.FromSlice(vals), jit.FromSlice(mask))
		fmt.Printf("burst %d: %2d samples, rms %.3f (bucket %d: %.3f)\n", i, len(seg), e1.Item(), b, e2.Item())
	}
	fmt.Println("smooth compiled", smooth.Stats().Compiles, "times; window stats", stats.Stats().Compiles)
}
