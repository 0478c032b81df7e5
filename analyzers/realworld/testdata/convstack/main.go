// convstack runs a small convolutional audio front end: a two-layer
// Conv1D encoder over streamed chunks, a filter bank, a long FIR
// low-pass, a gated dilated stack and an automatic gain control stage.
package main

import (
	"fmt"
	"math"

	"corpus/convstack/dsp"

	"github.com/jitlint/jitlint/jit"
)

// Pipeline is the learned encoder with its bookkeeping.
type Pipeline struct {
	W1, W2 jit.Array
	Traces int
	Chunks int
	encode *jit.Func[func(jit.Array) jit.Array]
}

func weights(cout, cin, k int, seed float64) jit.Array {
	n := cout * cin * k
	return jit.Arange(n, jit.Float32).Mul(1.37).Add(seed).Sin().Mul(1/math.Sqrt(float64(cin*k))).Reshape(cout, cin, k)
}

func NewPipeline() *Pipeline {
	p := &Pipeline{W1: weights(4, 1, 5, 0), W2: weights(2, 4, 3, 1)}
	p.encode = jit.Jit(p.Encode)
	return p
}

// Encode maps a mono chunk [1, L] to two feature channels.
func (p *Pipeline) Encode(x jit.Array) jit.Array {
	p.Traces++ // want traceeffect
	h := dsp.Conv1D(x, p.W1).Tanh()
	return dsp.Conv1D(h, p.W2)
}

// AGC is the gain-control configuration.
type AGC struct {
	Gain  float64 `jit:"static"`
	Limit float64 `jit:"static"`
}

func applyAGC(cfg AGC, x jit.Array) jit.Array {
	return x.Mul(cfg.Gain).Tanh().Mul(cfg.Limit)
}

func smooth(x jit.Array, mode string) jit.Array {
	y := dsp.FIR(x, []float32{0.25, 0.5, 0.25})
	if mode == "same" {
		y = jit.Concatenate(0, x.Slice([]int{0}, []int{1}), y, x.Slice([]int{x.Shape()[0] - 1}, []int{x.Shape()[0]}))
	}
	return y
}

func chunk(n int, start float64) jit.Array {
	t := jit.Arange(n, jit.Float32).Add(start).Mul(0.21)
	return t.Sin().Add(t.Mul(5.3).Sin().Mul(0.4))
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

func stream(p *Pipeline) {
	pos := 0.0
	for _, n := range []int{40, 52, 47, 61, 38, 70} {
		x := chunk(n, pos).Reshape(1, n)
		feats := p.encode.Call(x) // want shapechurn
		p.Chunks++
		pos += float64(n)
		fmt.Printf("chunk of %d: features %v energy %.4f\n", n, feats.Shape(), feats.Mul(feats).Mean().Item())
	}
	fmt.Printf("streamed %d chunks with %d traces\n", p.Chunks, p.Traces)
}

func streamBucketed(p *Pipeline) {
	pos := 0.0
	for _, n := range []int{40, 52, 47, 61, 38, 70, 90, 33, 100, 58} {
		size := roundUp(n, 64)
		padded, _, err := jit.PadTo(chunk(n, pos), size)
		if err != nil {
			panic(err)
		}
		feats := p.encode.Call(padded.Reshape(1, size))
		p.Chunks++
		pos += float64(n)
		valid := n - 6
		f := feats.Slice([]int{0, 0}, []int{2, valid})
		fmt.Printf("bucketed chunk %3d -> %3d: energy %.4f\n", n, size, f.Mul(f).Mean().Item())
	}
	fmt.Printf("streamed %d chunks with %d traces\n", p.Chunks, p.Traces)
}

func filterBank(x jit.Array) {
	var bank [][]float32
	for f := 0; f < 8; f++ {
		kern := make([]float32, 5)
		for t := range kern {
			kern[t] = float32(math.Cos(float64(f*t) * math.Pi / 8))
		}
		bank = append(bank, kern)
	}
	fb := jit.Jit(func(x jit.Array) jit.Array { return dsp.FilterBank(x, bank) })
	for i := 0; i < 3; i++ {
		y := fb.Call(x.Mul(float64(i + 1)))
		fmt.Printf("filter bank pass %d: %v, band energy %.4f\n", i, y.Shape(), y.Mul(y).Mean().Item())
	}
}

func lowpass(x jit.Array) jit.Array {
	taps := dsp.Window(64)
	sum := float32(0)
	for _, t := range taps {
		sum += t
	}
	for i := range taps {
		taps[i] /= sum
	}
	lp := jit.Jit(func(x jit.Array) jit.Array { return dsp.FIR(x, taps) }) // want unrolledloop
	return lp.Call(x)
}

func gated(x jit.Array) {
	dil := []int{1, 2, 4, 8}
	ws := make([]jit.Array, len(dil))
	for i := range ws {
		ws[i] = weights(1, 1, 2, float64(i))
	}
	net := jit.Jit(func(x jit.Array) jit.Array { return dsp.WaveNetStack(x, ws, dil) })
	y := net.Call(x.Reshape(1, x.Shape()[0]))
	fmt.Printf("gated stack: %v mean %.4f\n", y.Shape(), y.Mean().Item())
}

func autoGain(x jit.Array) {
	agc := jit.Jit(applyAGC)
	cfg := AGC{Gain: 1, Limit: 0.9}
	for i := 0; i < 6; i++ {
		y := agc.Call(cfg, x) // want staticargs
		rms := math.Sqrt(y.Mul(y).Mean().Item())
		fmt.Printf("agc step %d: gain %.3f rms %.4f\n", i, cfg.Gain, rms)
		cfg.Gain *= 0.5 / rms
	}
}

func smoothing(x jit.Array) {
	sm := jit.Jit(smooth, jit.StaticArgnums(1))
	total := 0.0
	for i := 0; i < 30; i++ {
		mode := "valid"
		if i%2 == 1 {
			mode = "same"
		}
		total += sm.Call(x.Add(float64(i)*0.01), mode).Mean().Item()
	}
	fmt.Printf("smoothing: mean of means %.4f\n", total/30)
}

// finish prepares the low-passed signal for output.
func finish(y jit.Array) jit.Array {
	peak := y.Abs().MaxReduce()
	if peak.Item() == 0 { // want tracedbool
		return y
	}
	return y.Div(peak).Mul(0.98)
}

func main() {
	p := NewPipeline()
	stream(p)
	streamBucketed(p)
	x := chunk(256, 0)
	filterBank(x)
	y := lowpass(x)
	fmt.Printf("low-passed: %v peak %.4f\n", y.Shape(), y.Abs().MaxReduce().Item())
	gated(x)
	autoGain(x)
	smoothing(x)
	jit.Jit(finish).Call(y).BlockUntilReady()
}
