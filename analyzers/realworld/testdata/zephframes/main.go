// zephframes: a small log-mel front end for a streaming audio source.
//
// Samples arrive in chunks of irregular length (as from a sound card
// callback). They are framed with a Hann window, projected on a real DFT
// basis, and pooled by a triangular mel filter bank (a matrix product).
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	sampleRate = 8000
	numMels    = 10
	blockSize  = 512 // samples per analysis block in buffered mode
	gateLevel  = 0.02
)

// FrameSpec is the framing geometry; it is static (it decides shapes).
type FrameSpec struct {
	Length int
	Hop    int
}

func (s FrameSpec) count(n int) int { return (n-s.Length)/s.Hop + 1 }

// Bank holds the per-geometry constants: window, DFT basis, mel weights.
type Bank struct {
	Window jit.Array // [L]
	Cos    jit.Array // [L, bins]
	Sin    jit.Array // [L, bins]
	Mel    jit.Array // [bins, mels]
}

var framesStaged int

func newBank(spec FrameSpec) Bank {
	l, bins := spec.Length, spec.Length/2+1
	win := make([]float32, l)
	for i := range win {
		win[i] = float32(0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(l)))
	}
	c, s := make([]float32, l*bins), make([]float32, l*bins)
	for n := 0; n < l; n++ {
		for k := 0; k < bins; k++ {
			ph := 2 * math.Pi * float64(n*k) / float64(l)
			c[n*bins+k], s[n*bins+k] = float32(math.Cos(ph)), float32(math.Sin(ph))
		}
	}
	hz2mel := func(f float64) float64 { return 2595 * math.Log10(1+f/700) }
	top := hz2mel(sampleRate / 2)
	mel := make([]float32, bins*numMels)
	for k := 0; k < bins; k++ {
		m := hz2mel(float64(k) * sampleRate / float64(l))
		for j := 0; j < numMels; j++ {
			center := top * float64(j+1) / float64(numMels+1)
			w := 1 - math.Abs(m-center)/(top/float64(numMels+1))
			if w > 0 {
				mel[k*numMels+j] = float32(w)
			}
		}
	}
	return Bank{jit.FromSlice(win), jit.FromSlice(c, l, bins), jit.FromSlice(s, l, bins), jit.FromSlice(mel, bins, numMels)}
}

// frame stacks overlapping windows of x into a [frames, L] matrix.
func frame(spec FrameSpec, x jit.Array) jit.Array {
	n := spec.count(x.Shape()[0])
	rows := make([]jit.Array, 0, n)
	for i := 0; i < n; i++ {
		start := i * spec.Hop
		rows = append(rows, x.Slice([]int{start}, []int{start + spec.Length}).Reshape(1, spec.Length))
	}
	framesStaged += n // want traceeffect
	return jit.Concatenate(0, rows...)
}

// LogMel returns [frames, mels] log energies of one block.
func LogMel(spec FrameSpec, b Bank, x jit.Array) jit.Array {
	f := frame(spec, x).Mul(b.Window)
	re, im := f.MatMul(b.Cos), f.MatMul(b.Sin)
	power := re.Mul(re).Add(im.Mul(im))
	return power.MatMul(b.Mel).Add(1e-6).Log()
}

// Onset computes a spectral-flux-like envelope with a fine hop of 8 samples.
func Onset(x jit.Array) jit.Array {
	const l, hop = 16, 8
	n := (x.Shape()[0]-l)/hop + 1
	prev := jit.Zeros(jit.Float32)
	flux := make([]jit.Array, 0, n)
	for i := 0; i < n; i++ { // want unrolledloop
		e := x.Slice([]int{i * hop}, []int{i*hop + l}).Pow(2).Sum()
		flux = append(flux, jit.Relu(e.Sub(prev)).Reshape(1))
		prev = e
	}
	return jit.Concatenate(0, flux...)
}

// Gate zeroes a block that is below the noise floor.
func Gate(x jit.Array) jit.Array {
	rms := x.Pow(2).Mean().Sqrt()
	if rms.Item() < gateLevel { // want tracedbool
		return jit.Zeros(jit.Float32, x.Shape()...)
	}
	return x
}

// SoftGate is the traceable version of Gate.
func SoftGate(x jit.Array) jit.Array {
	rms := x.Pow(2).Mean().Sqrt()
	return jit.Where(rms.Lt(gateLevel), jit.Zeros(jit.Float32, x.Shape()...), x)
}

// source yields chunk lengths the way a driver callback might.
func source(total int) [][]float32 {
	var out [][]float32
	t, seed := 0, uint32(7)
	for t < total {
		seed = seed*1664525 + 1013904223
		n := 180 + int(seed>>24) // 180..435 samples
		c := make([]float32, n)
		for i := range c {
			tt := float64(t+i) / sampleRate
			c[i] = float32(0.4*math.Sin(2*math.Pi*440*tt) + 0.1*math.Sin(2*math.Pi*1250*tt))
		}
		out = append(out, c)
		t += n
	}
	return out
}

func main() {
	speech, music := FrameSpec{64, 32}, FrameSpec{128, 64}
	banks := map[FrameSpec]Bank{speech: newBank(speech), music: newBank(music)}
	logmel := jit.Jit(LogMel, jit.StaticArgnums(0))
	onset := jit.Jit(Onset)
	soft := jit.Jit(SoftGate)

	// Buffered mode: accumulate into fixed blocks, alternate two geometries.
	var pending []float32
	blocks := 0
	for _, chunk := range source(6000) {
		pending = append(pending, chunk...)
		for len(pending) >= blockSize {
			blk := soft.Call(jit.FromSlice(pending[:blockSize]))
			pending = pending[blockSize:]
			spec := speech
			if blocks%2 == 1 {
				spec = music
			}
			m := logmel.Call(spec, banks[spec], blk)
			o := onset.Call(blk)
			blocks++
			fmt.Printf("block %d %v: mel %v peak=%.2f onset max=%.3f\n", blocks, spec, m.Shape(), m.MaxReduce().Item(), o.MaxReduce().Item())
		}
	}

	// Low-latency mode: every chunk goes straight through, whatever its length.
	lowLatency := jit.Jit(LogMel, jit.StaticArgnums(0))
	for i, chunk := range source(2500) {
		m := lowLatency.Call(speech, banks[speech], jit.FromSlice(chunk)) // want shapechurn
		fmt.Printf("chunk %d (%d samples): %d frames, mean %.3f\n", i, len(chunk), m.Shape()[0], m.Mean().Item())
	}

	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("hard gate failed under jit:", r)
			}
		}()
		jit.Jit(Gate).Call(jit.Full(0.001, jit.Float32, blockSize))
	}()
	fmt.Println("frames staged while tracing:", framesStaged, "compiles:", logmel.Stats().Compiles)
}
