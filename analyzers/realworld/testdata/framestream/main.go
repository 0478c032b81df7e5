// Command framestream is a streaming audio-feature pipeline. A source stage
// cuts a recorded signal into 16-sample frames (the tail frame is shorter),
// a featurize stage turns each frame into four summary statistics, a history
// stage smooths the statistics seen so far, and a ring stage compares the
// newest frame with the last four. Stages are goroutines joined by channels
// and all of them stop when the context is cancelled. At the end the smoothed
// features go through a configurable equalizer.
package main

import (
	"context"
	"fmt"
	"log"
	"math"
	"time"

	"github.com/jitlint/jitlint/jit"
)

const frameLen = 16

type bandCfg struct {
	Lo, Hi int
}

type eqCfg struct {
	Name  string
	Gains []float64
}

func stat(x jit.Array) jit.Array { return x.Reshape(1) }

func featurize(frame jit.Array) jit.Array {
	log.Printf("featurizing a frame of %d samples", frame.Shape()[0]) // want traceeffect
	mean := frame.Mean()
	centered := frame.Sub(mean)
	std := centered.Mul(centered).Mean().Sqrt()
	return jit.Concatenate(0, stat(mean), stat(std), stat(frame.MaxReduce()), stat(frame.MinReduce()))
}

func smoothHistory(feats []jit.Array) jit.Array {
	acc := feats[0]
	for _, f := range feats[1:] {
		acc = acc.Mul(0.7).Add(f.Mul(0.3))
	}
	return acc
}

func ringDelta(ring [4]jit.Array, newest jit.Array) jit.Array {
	sum := ring[0]
	for _, r := range ring[1:] {
		sum = sum.Add(r)
	}
	return newest.Sub(sum.Div(4)).Abs()
}

func band(f jit.Array, cfg bandCfg) jit.Array {
	return f.Slice([]int{cfg.Lo}, []int{cfg.Hi}).Sum()
}

func applyEQ(f jit.Array, cfg eqCfg) jit.Array {
	return f.Mul(jit.FromSlice(cfg.Gains).Astype(jit.Float32))
}

func source(ctx context.Context, signal []float32) <-chan jit.Array {
	out := make(chan jit.Array)
	go func() {
		defer close(out)
		for start := 0; start < len(signal); start += frameLen {
			end := min(start+frameLen, len(signal))
			select {
			case out <- jit.FromSlice(signal[start:end]):
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func stage(ctx context.Context, in <-chan jit.Array, fn func(jit.Array) jit.Array) <-chan jit.Array {
	out := make(chan jit.Array)
	go func() {
		defer close(out)
		for x := range in {
			select {
			case out <- fn(x):
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	signal := make([]float32, 5*frameLen+9)
	for i := range signal {
		signal[i] = float32(math.Sin(float64(i)/3) + 0.2*math.Cos(float64(i)))
	}

	feat := jit.Jit(featurize)
	history := jit.Jit(smoothHistory)
	delta := jit.Jit(ringDelta)
	bands := jit.Jit(band, jit.StaticArgnums(1))

	var window []jit.Array
	smoothStage := func(f jit.Array) jit.Array {
		window = append(window, f)
		return history.Call(window) // want shapechurn
	}

	var ring [4]jit.Array
	for i := range ring {
		ring[i] = jit.Zeros(jit.Float32, 4)
	}
	ringStage := func(f jit.Array) jit.Array {
		d := delta.Call(ring, f)
		copy(ring[:], append(ring[1:], f))
		return d
	}

	frames := source(ctx, signal)
	feats := stage(ctx, frames, feat.Call)
	smoothed := stage(ctx, feats, smoothStage)
	deltas := stage(ctx, smoothed, ringStage)

	var last jit.Array
	n := 0
	for d := range deltas {
		cfg := bandCfg{Lo: 0, Hi: 2}
		if n%2 == 1 {
			cfg = bandCfg{Lo: 2, Hi: 4}
		}
		fmt.Printf("frame %d: delta %v band %v\n", n, d, bands.Call(d, cfg))
		last = d
		n++
	}
	cancel()
	fmt.Printf("featurize traces %d, history traces %d, ring traces %d\n",
		feat.Stats().Traces, history.Stats().Traces, delta.Stats().Traces)

	eq := jit.Jit(applyEQ, jit.StaticArgnums(1))
	warm := eqCfg{Name: "warm", Gains: []float64{1, 0.8, 0.6, 0.4}}
	fmt.Println("equalized:", eq.Call(window[len(window)-1], warm), last) // want staticargs
}
