// Package optim holds small host-side solver loops: the loop decides step
// sizes on the host, the objective and its pieces are jitted by the caller.
package optim

import "math"

// Problem is what a descent solver needs from the caller.
type Problem struct {
	// Value returns f(x) as a host number.
	Value func(x []float32) float64
	// Gradient returns the gradient at x.
	Gradient func(x []float32) []float32
	// Trial returns the trial point x - t*g and f at that point.
	Trial func(x, g []float32, t float64) ([]float32, float64)
}

// LineSearch configures Armijo backtracking.
type LineSearch struct {
	Shrink        float64 // factor applied to t after a rejected trial
	C1            float64 // sufficient-decrease constant
	MaxBacktracks int
}

// Options configures GradientDescent.
type Options struct {
	Iters int
	LS    LineSearch
	// InitialStep picks the first trial step of iteration it; s and y are the
	// last step and gradient change (nil on the first iteration).
	InitialStep func(it int, s, y []float32) float64
	// Log, when set, is called once per accepted iteration.
	Log func(it int, f, t float64)
}

// Result summarises a run.
type Result struct {
	F      float64
	Trials int
	Iters  int
}

// GradientDescent runs Iters iterations of steepest descent with an Armijo
// backtracking line search.
func GradientDescent(p Problem, x []float32, o Options) ([]float32, Result) {
	var res Result
	f := p.Value(x)
	var s, y, gPrev []float32
	for it := 0; it < o.Iters; it++ {
		g := p.Gradient(x)
		if gPrev != nil {
			y = Sub(g, gPrev)
		}
		gg := Dot(g, g)
		t := o.InitialStep(it, s, y)
		xn, fn := x, f
		for k := 0; k < o.LS.MaxBacktracks; k++ {
			res.Trials++
			xt, ft := p.Trial(x, g, t)
			if ft <= f-o.LS.C1*t*gg {
				xn, fn = xt, ft
				break
			}
			t *= o.LS.Shrink
		}
		s = Sub(xn, x)
		x, f, gPrev = xn, fn, g
		res.Iters++
		if o.Log != nil {
			o.Log(it, f, t)
		}
	}
	res.F = f
	return x, res
}

// BarzilaiBorwein is the BB1 step s·s / s·y, with fallback for the first
// iteration or a non-positive curvature estimate.
func BarzilaiBorwein(fallback float64) func(int, []float32, []float32) float64 {
	return func(it int, s, y []float32) float64 {
		if s == nil || y == nil {
			return fallback
		}
		sy := Dot(s, y)
		if sy <= 0 || math.IsNaN(sy) {
			return fallback
		}
		return Dot(s, s) / sy
	}
}

// Dot is the float64-accumulated inner product.
func Dot(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return d
}

// Sub returns a - b.
func Sub(a, b []float32) []float32 {
	out := make([]float32, len(a))
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}
