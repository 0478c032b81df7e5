// Command stream_pipeline runs a three-stage signal pipeline (source ->
// FIR filter -> envelope/decimate) connected by channels, each stage a
// goroutine calling jitted kernels.
package main

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

const (
	chunkLen = 256
	numTaps  = 48
)

var chunksFiltered atomic.Int64

// FIR applies a numTaps-tap filter as a sum of shifted, weighted copies.
func FIR(x, taps jit.Array) jit.Array {
	chunksFiltered.Add(1) // want traceeffect
	n := x.Shape()[0] - numTaps + 1
	acc := jit.Zeros(jit.Float32, n)
	for k := 0; k < numTaps; k++ { // want unrolledloop
		seg := x.Slice([]int{k}, []int{k + n})
		acc = acc.Add(seg.Mul(taps.Slice([]int{k}, []int{k + 1})))
	}
	return acc
}

// FIRMatmul is the same filter written as one matmul against a Toeplitz
// window matrix built on the host.
func FIRMatmul(windows, taps jit.Array) jit.Array {
	return windows.MatMul(taps)
}

// Envelope rectifies and smooths with a few passes of a 3-point average.
func Envelope(x jit.Array) jit.Array {
	y := x.Abs()
	for pass := 0; pass < 4; pass++ {
		n := y.Shape()[0]
		y = y.Slice([]int{0}, []int{n - 2}).
			Add(y.Slice([]int{1}, []int{n - 1})).
			Add(y.Slice([]int{2}, []int{n})).Div(3)
	}
	return y
}

// DecimateFixed configures decimation; it is a static argument, so its
// per-phase weights are a fixed-size (comparable) array.
type DecimateFixed struct {
	Factor  int
	Weights [4]float64
}

func decimate(x jit.Array, factor int, weights []float64) jit.Array {
	n := x.Shape()[0] / factor
	x = x.Slice([]int{0}, []int{n * factor}).Reshape(n, factor)
	out := jit.Zeros(jit.Float32, n)
	for p := 0; p < factor; p++ {
		col := x.Slice([]int{0, p}, []int{n, p + 1}).Reshape(n)
		out = out.Add(col.Mul(weights[p]))
	}
	return out
}

// DecimateArr takes a comparable configuration.
func DecimateArr(x jit.Array, cfg DecimateFixed) jit.Array {
	return decimate(x, cfg.Factor, cfg.Weights[:cfg.Factor])
}

func lowpassTaps() []float32 {
	taps := make([]float32, numTaps)
	var sum float64
	for i := range taps {
		t := float64(i) - float64(numTaps-1)/2
		v := 0.54 - 0.46*math.Cos(2*math.Pi*float64(i)/float64(numTaps-1))
		if t != 0 {
			v *= math.Sin(0.2*math.Pi*t) / (math.Pi * t)
		} else {
			v *= 0.2
		}
		taps[i] = float32(v)
		sum += v
	}
	for i := range taps {
		taps[i] /= float32(sum)
	}
	return taps
}

func source(chunks int, out chan<- []float32) {
	defer close(out)
	phase := 0.0
	for c := 0; c < chunks; c++ {
		n := chunkLen + numTaps - 1
		if c == chunks-1 {
			n = chunkLen/2 + numTaps - 1 // the stream ends mid-chunk
		}
		buf := make([]float32, n)
		for i := range buf {
			buf[i] = float32(math.Sin(phase) + 0.3*math.Sin(9*phase))
			phase += 0.05
		}
		out <- buf
	}
}

func toeplitz(x []float32) jit.Array {
	n := len(x) - numTaps + 1
	w := make([]float32, n*numTaps)
	for i := 0; i < n; i++ {
		copy(w[i*numTaps:(i+1)*numTaps], x[i:i+numTaps])
	}
	return jit.FromSlice(w, n, numTaps)
}

func main() {
	taps := jit.FromSlice(lowpassTaps())
	fir := jit.Jit(FIR)
	firMM := jit.Jit(FIRMatmul)
	env := jit.Jit(Envelope)
	decArr := jit.Jit(DecimateArr, jit.StaticArgnums(1))

	raw := make(chan []float32, 4)
	filtered := make(chan jit.Array, 4)
	done := make(chan []float32)

	go source(12, raw)

	mismatch := 0.0
	go func() {
		defer close(filtered)
		for buf := range raw {
			x := jit.FromSlice(buf)
			y := fir.Call(x, taps)
			y2 := firMM.Call(toeplitz(buf), taps)
			mismatch = math.Max(mismatch, maxAbs(y.Float32s(), y2.Float32s()))
			filtered <- y
		}
	}()

	go func() {
		var out []float32
		goodCfg := DecimateFixed{Factor: 2, Weights: [4]float64{0.5, 0.5}}
		for y := range filtered {
			e := env.Call(y)
			out = append(out, decArr.Call(e, goodCfg).Float32s()...)
		}
		done <- out
	}()

	out := <-done
	peak := 0.0
	for _, v := range out {
		peak = math.Max(peak, float64(v))
	}
	fmt.Printf("decimated %d samples, peak envelope %.3f, chunks traced %d\n", len(out), peak, chunksFiltered.Load())
	fmt.Printf("direct vs matmul FIR max diff %.2g\n", mismatch)
	fmt.Printf("fir compiles=%d env compiles=%d dec compiles=%d\n",
		fir.Stats().Compiles, env.Stats().Compiles, decArr.Stats().Compiles)
}

func maxAbs(a, b []float32) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(float64(a[i]-b[i])))
	}
	return m
}
