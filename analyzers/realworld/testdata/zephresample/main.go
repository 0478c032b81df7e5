// zephresample: bring a batch of recorded signals (different lengths and
// rates) onto a common 128-sample grid, compare kernels by round-trip error,
// and make half-rate copies.
package main

import (
	"fmt"
	"math"

	"corpus/zephresample/interp"

	"github.com/jitlint/jitlint/jit"
)

const gridLen = 128

type signal struct {
	name string
	x    jit.Array
	n    int
}

func makeSignals() []signal {
	lengths := []int{97, 120, 150, 64, 200, 180, 110, 240}
	out := make([]signal, len(lengths))
	for i, n := range lengths {
		v := make([]float32, n)
		f := 1.5 + 0.5*float64(i)
		for t := range v {
			ph := float64(t) / float64(n)
			v[t] = float32(math.Sin(2*math.Pi*f*ph) + 0.3*math.Cos(2*math.Pi*3*f*ph))
		}
		out[i] = signal{fmt.Sprintf("rec%02d", i), jit.FromSlice(v), n}
	}
	return out
}

// exporter renders a signal with a calibration gain.
type exporter struct {
	m    interp.Method
	gain float64
}

func (e exporter) render(x, pos jit.Array) jit.Array {
	return interp.Resample(e.m, x, pos).Mul(e.gain)
}

// halfband is a 41-tap Hamming-windowed sinc with cutoff at a quarter rate.
var halfband = func() []float32 {
	h := make([]float32, 41)
	for k := range h {
		t := float64(k - 20)
		s := 0.5
		if t != 0 {
			s = math.Sin(math.Pi*t/2) / (math.Pi * t)
		}
		h[k] = float32(s * (0.54 + 0.46*math.Cos(math.Pi*t/20)))
	}
	return h
}()

// antiAlias low-pass filters x before decimation (valid part only).
func antiAlias(x jit.Array) jit.Array {
	n := x.Shape()[0] - len(halfband) + 1
	acc := jit.Zeros(jit.Float32, n)
	for k, h := range halfband { // want unrolledloop
		acc = acc.Add(x.Slice([]int{k}, []int{k + n}).Mul(h))
	}
	return acc
}

// guarded refuses positions outside the signal before resampling.
func guarded(m interp.Method, x, pos jit.Array) jit.Array {
	lo, hi := pos.MinReduce().Item(), pos.MaxReduce().Item() // want tracedbool
	if lo < 0 || hi > float64(x.Shape()[0]-1) {
		panic(fmt.Sprintf("positions [%g, %g] outside the signal", lo, hi))
	}
	return interp.Resample(m, x, pos)
}

func rms(a, b jit.Array) float64 {
	d := a.Sub(b)
	return math.Sqrt(d.Mul(d).Mean().Item())
}

func main() {
	signals := makeSignals()
	cubic := interp.Method{Kind: interp.Cubic}

	// 1. Straight to the grid at native length.
	toGrid := jit.Jit(interp.Resample)
	native := map[string]jit.Array{}
	for _, s := range signals {
		native[s.name] = toGrid.Call(cubic, s.x, interp.Positions(s.n, gridLen)) // want shapechurn
	}

	// 2. The same through power-of-two buckets (64, 128, 256).
	padded := map[string]jit.Array{}
	for _, s := range signals {
		padded[s.name] = interp.ToLengthPadded(cubic, interp.Bucket(s.x), s.n, gridLen)
	}
	worst := 0.0
	for name, y := range padded {
		worst = math.Max(worst, rms(y, native[name]))
	}
	fmt.Printf("bucketed vs native: worst rms %.2g\n", worst)

	// 3. Kernel comparison: down to 64 samples and back up to the grid.
	methods := []interp.Method{
		{Kind: interp.Linear},
		cubic,
		{Kind: interp.Lanczos, Order: 2},
		{Kind: interp.Lanczos, Order: 3},
		{Kind: interp.Lagrange, Order: 4},
		{Kind: interp.Sinc, Order: 8},
	}
	errs := make([]float64, len(methods))
	for _, s := range signals {
		xb := interp.Bucket(s.x)
		for i, m := range methods {
			low := interp.ToLengthPadded(m, xb, s.n, gridLen/2)
			back := interp.ToLengthPadded(m, low, gridLen/2, gridLen)
			errs[i] += rms(back, padded[s.name]) / float64(len(signals))
		}
	}
	for i, m := range methods {
		fmt.Printf("kind %d order %d: round-trip rms %.4f\n", m.Kind, m.Order, errs[i])
	}

	// 4. Lanczos-3 export: one shared resampler, and a per-signal exporter
	// that applies the signal's calibration gain.
	lanczos3 := interp.Method{Kind: interp.Lanczos, Order: 3}
	shared := interp.New(lanczos3)
	maxDiff := 0.0
	for _, s := range signals {
		ex := exporter{m: lanczos3, gain: 1}
		render := jit.Jit(ex.render) // want staticargs
		pos := interp.Positions(s.n, gridLen)
		a := render.Call(interp.Bucket(s.x), pos)
		b := shared.Run(interp.Bucket(s.x), pos)
		maxDiff = math.Max(maxDiff, rms(a, b))
	}
	fmt.Printf("shared resampler: %d calls, %d compiles, max diff to per-signal %.2g\n", shared.Calls, shared.Compiles(), maxDiff)

	// 5. Half-rate copies: anti-alias filter, then resample to the half grid.
	lowpass := jit.Jit(antiAlias)
	for _, s := range signals {
		y := lowpass.Call(interp.Bucket(s.x))
		half := interp.ToLengthPadded(cubic, y, s.n-len(halfband)+1, gridLen/2)
		fmt.Printf("%s: half-rate peak %.3f\n", s.name, half.MaxReduce().Item())
	}

	// 6. A guarded variant for positions from user input.
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("checked resample:", r.(*jit.Error).Kind)
			}
		}()
		pos := jit.FromSlice([]float32{-0.5, 3.25, 10})
		jit.Jit(guarded).Call(cubic, signals[0].x, pos)
	}()
}
