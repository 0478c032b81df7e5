// Command signalpipeline streams audio-like chunks through a goroutine
// pipeline: measure, normalize, filter, and report per-chunk statistics.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	frame = 512 // every chunk is padded to this length
	taps  = 48
)

type chunk struct {
	seq     int
	samples []float32
}

type result struct {
	seq            int
	rms, out, peak float64
}

var samplesSeen int

// firTaps is a windowed-sinc low-pass filter.
var firTaps = func() []float64 {
	h := make([]float64, taps)
	for k := range h {
		t := float64(k) - float64(taps-1)/2
		sinc := 1.0
		if t != 0 {
			sinc = math.Sin(0.3*math.Pi*t) / (0.3 * math.Pi * t)
		}
		h[k] = 0.3 * sinc * (0.54 - 0.46*math.Cos(2*math.Pi*float64(k)/float64(taps-1)))
	}
	return h
}()

func rms(x jit.Array) jit.Array {
	samplesSeen += x.Shape()[0] // want traceeffect
	return x.Pow(2).Mean().Sqrt()
}

func shift(x jit.Array, k int) jit.Array {
	n := x.Shape()[0]
	return jit.Concatenate(0, jit.Zeros(jit.Float32, k), x.Slice([]int{0}, []int{n - k}))
}

// fir applies the low-pass filter and a gain (static).
func fir(x jit.Array, gain float64) jit.Array {
	y := x.Mul(firTaps[0] * gain)
	for k := 1; k < taps; k++ { // want unrolledloop
		y = y.Add(shift(x, k).Mul(firTaps[k] * gain))
	}
	return y
}

// smooth is a moving average of the given order (static, 2 or 4).
func smooth(x, mask jit.Array, order int) jit.Array {
	y := x
	for k := 1; k < order; k++ {
		y = y.Add(shift(x, k))
	}
	jit.DebugPrint("smooth: order %v, %v valid samples", order, mask.Sum())
	return y.Div(float64(order)).Mul(mask)
}

func peak(x, mask jit.Array) jit.Array { return x.Abs().Mul(mask).MaxReduce() }

func main() {
	kernels := map[string]*jit.Func[func(x, mask jit.Array) jit.Array]{
		"peak": jit.Jit(peak),
	}
	measure := jit.Jit(rms)
	lowpass := jit.Jit(fir, jit.StaticArgnums(1))
	smoother := jit.Jit(smooth, jit.StaticArgnums(2))

	chunks := make(chan chunk)
	results := make(chan result)
	go func() {
		defer close(chunks)
		for seq := 0; seq < 12; seq++ {
			n := 100 + 17*seq
			s := make([]float32, n)
			for i := range s {
				s[i] = float32((1+0.2*float64(seq))*math.Sin(0.05*float64(i*(seq+1))) + 0.3*math.Sin(2.5*float64(i)))
			}
			chunks <- chunk{seq, s}
		}
	}()
	go func() {
		defer close(results)
		for c := range chunks {
			raw := jit.FromSlice(c.samples)
			level := measure.Call(raw).Item() // want shapechurn
			x, mask, err := jit.PadTo(raw, frame)
			if err != nil {
				continue
			}
			y := lowpass.Call(x, 1/level) // want staticargs
			y = smoother.Call(y, mask, 2+2*(c.seq%2))
			results <- result{seq: c.seq, rms: level, out: measure.Call(y).Item() * math.Sqrt(frame/float64(len(c.samples))),
				peak: kernels["peak"].Call(y, mask).Item()}
		}
	}()

	for r := range results {
		fmt.Printf("chunk %2d  in-rms %.3f  out-rms %.3f  peak %.3f\n", r.seq, r.rms, r.out, r.peak)
	}
	fmt.Printf("samples measured at trace time: %d\n", samplesSeen)
	fmt.Printf("compiles: measure=%d lowpass=%d smoother=%d\n",
		measure.Stats().Compiles, lowpass.Stats().Compiles, smoother.Stats().Compiles)
}
