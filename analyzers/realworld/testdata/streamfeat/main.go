// Command streamfeat is a streaming feature extractor: audio-like samples
// arrive in irregular packets, a ring buffer cuts them into overlapping
// windows, and each window is turned into band energies plus a few summary
// statistics. The extractor is configured with functional options.
package main

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// Extractor turns windows of samples into feature vectors.
type Extractor struct {
	window, hop, bands, taps int
	lastTrace                time.Time
	windowsSeen              int
}

// Option configures an Extractor.
type Option func(*Extractor)

func WithWindow(n int) Option { return func(e *Extractor) { e.window = n } }
func WithHop(n int) Option    { return func(e *Extractor) { e.hop = n } }
func WithBands(n int) Option  { return func(e *Extractor) { e.bands = n } }
func WithTaps(n int) Option   { return func(e *Extractor) { e.taps = n } }

func NewExtractor(opts ...Option) *Extractor {
	e := &Extractor{window: 64, hop: 16, bands: 8, taps: 8}
	for _, o := range opts {
		o(e)
	}
	return e
}

// BandEnergies projects the window on `bands` cosines and returns their
// log energies.
func (e *Extractor) BandEnergies(w jit.Array) jit.Array {
	e.lastTrace = time.Now() // want traceeffect
	t := jit.Arange(e.window, jit.Float32)
	var out []jit.Array
	for b := 0; b < e.bands; b++ { // want unrolledloop
		basis := t.Mul(math.Pi * float64(b+1) / float64(e.window)).Cos()
		out = append(out, w.Mul(basis).Sum().Pow(2).Add(1e-6).Log().Reshape(1))
	}
	return jit.Concatenate(0, out...)
}

// Smooth is an FIR low-pass with e.taps equal taps over the window.
func (e *Extractor) Smooth(w jit.Array) jit.Array {
	n := e.window - e.taps + 1
	acc := jit.Zeros(jit.Float32, n)
	for k := 0; k < e.taps; k++ {
		acc = acc.Add(w.Slice([]int{k}, []int{k + n}))
	}
	return acc.Div(float64(e.taps))
}

// Gain scales a window by a static gain (the AGC's current setting).
func Gain(g float64, w jit.Array) jit.Array { return w.Mul(g).Tanh() }

// Normalize optionally removes the mean (static flag).
func Normalize(center bool, w jit.Array) jit.Array {
	if center {
		w = w.Sub(w.Mean())
	}
	return w.Div(w.Abs().MaxReduce().Max(1e-6))
}

// PacketRMS is the level of one raw packet.
func PacketRMS(p jit.Array) jit.Array { return p.Pow(2).Mean().Sqrt() }

// Weighted applies per-band weights picked by a static weight profile.
func Weighted(profile [5]float32, f jit.Array) jit.Array {
	return f.Mul(jit.FromSlice(profile[:]))
}

// Ring is a host ring buffer emitting fixed windows.
type Ring struct {
	buf      []float32
	win, hop int
}

func (r *Ring) Push(p []float32, emit func([]float32)) {
	r.buf = append(r.buf, p...)
	for len(r.buf) >= r.win {
		emit(append([]float32(nil), r.buf[:r.win]...))
		r.buf = r.buf[r.hop:]
	}
}

// packets simulates a socket: irregular packet sizes, deterministic data.
func packets() [][]float32 {
	sizes := []int{37, 41, 53, 29, 61, 47, 33, 58}
	var out [][]float32
	k := 0
	for _, n := range sizes {
		p := make([]float32, n)
		for i := range p {
			p[i] = float32(math.Sin(float64(k)*0.21) + 0.3*math.Sin(float64(k)*1.7))
			k++
		}
		out = append(out, p)
	}
	return out
}

func main() {
	ex := NewExtractor(WithWindow(64), WithHop(16), WithBands(40), WithTaps(32))
	bands := jit.Jit(ex.BandEnergies)
	smooth := jit.Jit(ex.Smooth)
	gain := jit.Jit(Gain, jit.StaticArgnums(0))
	norm := jit.Jit(Normalize, jit.StaticArgnums(0))
	rms := jit.Jit(PacketRMS)

	ring := &Ring{win: ex.window, hop: ex.hop}
	agc := 1.0
	var feats [][]float32
	start := time.Now()
	for i, p := range packets() {
		level := rms.Call(jit.FromSlice(p)).Item() // want shapechurn
		fmt.Printf("packet %d: %2d samples, rms %.3f\n", i, len(p), level)
		ring.Push(p, func(w []float32) {
			ex.windowsSeen++
			x := gain.Call(agc, jit.FromSlice(w)) // want staticargs
			agc = math.Round((agc*0.8+0.2/math.Max(level, 0.05))*1000) / 1000
			x = norm.Call(ex.windowsSeen%2 == 0, x)
			s := smooth.Call(x)
			f := bands.Call(x).Float32s()
			feats = append(feats, append(f[:4:4], s.Mean().Float32s()...))
		})
	}
	fmt.Println("stream within budget:", time.Since(start) < time.Minute)
	fmt.Printf("%d windows of %d features, agc now %.3f\n", len(feats), len(feats[0]), agc)
	for i := 0; i < len(feats); i += 6 {
		parts := make([]string, len(feats[i]))
		for j, v := range feats[i] {
			parts[j] = fmt.Sprintf("%7.3f", v)
		}
		fmt.Printf("window %2d: %s\n", i, strings.Join(parts, " "))
	}
	fmt.Printf("compiles: rms=%d gain=%d norm=%d bands=%d smooth=%d\n",
		rms.Stats().Compiles, gain.Stats().Compiles, norm.Stats().Compiles, bands.Stats().Compiles, smooth.Stats().Compiles)

	// A fixed weight profile as a static (comparable) array: one compile.
	weighted := jit.Jit(Weighted, jit.StaticArgnums(0))
	profile := [5]float32{1, 0.5, 0.25, 0.125, 10}
	score := 0.0
	for _, f := range feats {
		score += weighted.Call(profile, jit.FromSlice(f)).Sum().Item()
	}
	fmt.Printf("weighted score %.3f (compiles=%d)\n", score, weighted.Stats().Compiles)
}
