// Package sigproc holds audio helpers: windows, real-DFT matrices, framing
// with 50% overlap, mel filterbanks and synthetic test signals.
package sigproc

import (
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// Hann returns a periodic Hann window of length n (scipy.signal.get_window("hann", n)).
func Hann(n int) []float32 {
	w := make([]float32, n)
	for i := range w {
		w[i] = float32(0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n)))
	}
	return w
}

// DFT returns the real and imaginary parts of the first bins rows of an
// n-point DFT, transposed to [n, bins] so that frames @ re gives the
// spectrum, with the window w folded in (w may be nil).
func DFT(n, bins int, w []float32) (re, im jit.Array) {
	c := make([]float32, n*bins)
	s := make([]float32, n*bins)
	for t := 0; t < n; t++ {
		g := float32(1)
		if w != nil {
			g = w[t]
		}
		for k := 0; k < bins; k++ {
			ph := 2 * math.Pi * float64(k*t) / float64(n)
			c[t*bins+k] = g * float32(math.Cos(ph))
			s[t*bins+k] = -g * float32(math.Sin(ph))
		}
	}
	return jit.FromSlice(c, n, bins), jit.FromSlice(s, n, bins)
}

// Frames cuts x [N] (N a multiple of hop) into frames of 2*hop samples with
// a hop of hop samples: [N/hop - 1, 2*hop], using a reshape and one
// concatenation instead of a gather.
func Frames(x jit.Array, hop int) jit.Array {
	n := x.Shape()[0] / hop
	blocks := x.Reshape(n, hop)
	first := blocks.Slice([]int{0, 0}, []int{n - 1, hop})
	second := blocks.Slice([]int{1, 0}, []int{n, hop})
	return jit.Concatenate(1, first, second)
}

// FrameMask reduces a per-sample mask [N] to a per-frame mask
// [N/hop - 1]: a frame counts when its first half holds real samples.
func FrameMask(mask jit.Array, hop int) jit.Array {
	n := mask.Shape()[0] / hop
	return mask.Reshape(n, hop).Slice([]int{0, 0}, []int{n - 1, 1}).Reshape(n - 1)
}

// MelFilters returns a [bins, nMels] triangular mel filterbank for a
// one-sided spectrum of bins bins at sample rate sr.
func MelFilters(bins, nMels int, sr float64) jit.Array {
	hz2mel := func(f float64) float64 { return 2595 * math.Log10(1+f/700) }
	mel2hz := func(m float64) float64 { return 700 * (math.Pow(10, m/2595) - 1) }
	top := hz2mel(sr / 2)
	edges := make([]float64, nMels+2)
	for i := range edges {
		edges[i] = mel2hz(top * float64(i) / float64(nMels+1))
	}
	fb := make([]float32, bins*nMels)
	for k := 0; k < bins; k++ {
		f := float64(k) * sr / 2 / float64(bins-1)
		for m := 0; m < nMels; m++ {
			lo, c, hi := edges[m], edges[m+1], edges[m+2]
			var v float64
			switch {
			case f > lo && f <= c:
				v = (f - lo) / (c - lo)
			case f > c && f < hi:
				v = (hi - f) / (hi - c)
			}
			fb[k*nMels+m] = float32(v)
		}
	}
	return jit.FromSlice(fb, bins, nMels)
}

// Chirp returns a linear chirp from f0 to f1 Hz over n samples at sr, with
// Gaussian noise of standard deviation noise drawn from rng.
func Chirp(n int, sr, f0, f1, noise float64, rng *rand.Rand) []float32 {
	x := make([]float32, n)
	dur := float64(n) / sr
	for i := range x {
		t := float64(i) / sr
		ph := 2 * math.Pi * (f0*t + (f1-f0)*t*t/(2*dur))
		x[i] = float32(0.5*math.Sin(ph) + noise*rng.NormFloat64())
	}
	return x
}

// RoundUp rounds n up to a multiple of m.
func RoundUp(n, m int) int { return (n + m - 1) / m * m }
