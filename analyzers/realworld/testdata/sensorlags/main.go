// Command sensorlags scores a vibration sensor for drift. Each window of 64
// samples is turned into a matrix of lagged copies, smoothed, and projected
// onto a fixed set of weights; a long-context model looks 48 samples back and
// a short-context one only 4. Both models are jitted once and then applied to
// a stream of windows, and samples far above the window's RMS level are
// counted as spikes.
package main

import (
	"fmt"
	"math"

	"corpus/sensorlags/lagfeat"

	"github.com/jitlint/jitlint/jit"
)

const window = 64

func weights(n int) jit.Array {
	w := make([]float32, n)
	for i := range w {
		w[i] = float32(math.Exp(-float64(i) / 8))
	}
	return jit.FromSlice(w, 1, n)
}

func sensorWindow(seed int) jit.Array {
	xs := make([]float32, window)
	for i := range xs {
		t := float64(i + seed*window)
		xs[i] = float32(math.Sin(t/5) + 0.1*math.Cos(t*1.7))
	}
	return jit.FromSlice(xs)
}

func main() {
	wLong, wShort := weights(48), weights(4)

	longModel := jit.Jit(func(x jit.Array) jit.Array {
		feats := lagfeat.Lags(x, 48) // want unrolledloop
		feats = lagfeat.Smooth(feats, 2)
		lagfeat.Describe("long", feats) // want traceeffect
		return wLong.MatMul(feats).Reshape(window).Sub(x).Abs().Mean()
	})

	shortModel := jit.Jit(func(x jit.Array) jit.Array {
		feats := lagfeat.Smooth(lagfeat.Lags(x, 4), 3)
		return wShort.MatMul(feats).Reshape(window).Sub(x).Abs().Mean()
	})

	alerts := jit.Jit(func(limit float64, x jit.Array) jit.Array {
		return x.Abs().Gt(limit).Astype(jit.Float32).Sum()
	}, jit.StaticArgnums(0))

	var longScores, shortScores []float64
	spikes := 0.0
	for s := 0; s < 6; s++ {
		x := sensorWindow(s)
		longScores = append(longScores, longModel.Call(x).Item())
		shortScores = append(shortScores, shortModel.Call(x).Item())
		limit := 1.5 * rms(x.Float32s())
		spikes += alerts.Call(limit, x).Item() // want staticargs
	}

	// Show the features of the last window.
	last := sensorWindow(5)
	lagfeat.Describe("last", lagfeat.Smooth(lagfeat.Lags(last, 4), 1))

	fmt.Println("long-context residuals: ", fmtScores(longScores))
	fmt.Println("short-context residuals:", fmtScores(shortScores))
	fmt.Printf("samples above 1.5 rms: %.0f\n", spikes)
	fmt.Printf("compiles: long=%d short=%d alerts=%d\n", longModel.Stats().Compiles,
		shortModel.Stats().Compiles, alerts.Stats().Compiles)
}

func rms(xs []float32) float64 {
	s := 0.0
	for _, v := range xs {
		s += float64(v) * float64(v)
	}
	return math.Sqrt(s / float64(len(xs)))
}

func fmtScores(s []float64) string {
	out := ""
	for _, v := range s {
		out += fmt.Sprintf("%.4f ", v)
	}
	return out
}
