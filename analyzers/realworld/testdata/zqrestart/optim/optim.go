// Package optim has small first-order minimisers over flat parameter
// vectors, usable eagerly or inside jitted / vmapped functions.
package optim

import "github.com/jitlint/jitlint/jit"

// Objective maps a flat parameter vector to a scalar loss.
type Objective func(x jit.Array) jit.Array

// Options configure Minimize and MinimizeScan.
type Options struct {
	Iters     int     // outer iterations
	LR        float64 // largest step tried by the line search
	Momentum  float64 // heavy-ball coefficient
	Backtrack int     // step sizes tried per iteration: LR, LR/2, ...
	ClipNorm  float64 // gradient norm clip (0: none)
}

// Defaults are reasonable for smooth problems of a few dozen parameters.
var Defaults = Options{Iters: 40, LR: 0.05, Momentum: 0.6, Backtrack: 6, ClipNorm: 10}

type state struct{ X, V jit.Array }

func clip(g jit.Array, c float64) jit.Array {
	if c <= 0 {
		return g
	}
	return g.Div(g.Mul(g).Sum().Sqrt().Div(c).Max(1))
}

// bestAlong tries the steps LR, LR/2, ... along d and keeps the best point
// (x itself if none improves), without host branching.
func bestAlong(f Objective, x, d jit.Array, o Options) jit.Array {
	best, bestF := x, f(x)
	step := o.LR
	for k := 0; k < o.Backtrack; k++ {
		cand := x.Add(d.Mul(step))
		fc := f(cand)
		better := fc.Lt(bestF)
		best, bestF = jit.Where(better, cand, best), jit.Where(better, fc, bestF)
		step /= 2
	}
	return best
}

func iterate(f Objective, grad func(jit.Array) jit.Array, s state, o Options) state {
	g := clip(grad(s.X), o.ClipNorm)
	v := s.V.Mul(o.Momentum).Sub(g)
	return state{X: bestAlong(f, s.X, v, o), V: v}
}

// Minimize runs o.Iters iterations of momentum descent with a step search.
func Minimize(f Objective, x0 jit.Array, o Options) (jit.Array, jit.Array) {
	grad := jit.Grad[func(jit.Array) jit.Array](f)
	s := state{X: x0, V: x0.Mul(0)}
	for it := 0; it < o.Iters; it++ {
		s = iterate(f, grad, s, o)
	}
	return s.X, f(s.X)
}

// MinimizeScan is Minimize with the iterations staged as one scan.
func MinimizeScan(f Objective, x0 jit.Array, o Options) (jit.Array, jit.Array) {
	grad := jit.Grad[func(jit.Array) jit.Array](f)
	s, _ := jit.ScanN(func(s state) (state, struct{}) {
		return iterate(f, grad, s, o), struct{}{}
	}, state{X: x0, V: x0.Mul(0)}, o.Iters)
	return s.X, f(s.X)
}

// Armijo backtracks from t0 until the sufficient-decrease condition holds.
func Armijo(f Objective, x, d, g jit.Array, t0 float64) float64 {
	fx := f(x).Item()
	slope := g.Mul(d).Sum().Item()
	t := t0
	for k := 0; k < 30 && f(x.Add(d.Mul(t))).Item() > fx+1e-4*t*slope; k++ {
		t *= 0.5
	}
	return t
}

// Polish takes steps of steepest descent with an Armijo line search.
func Polish(f Objective, x jit.Array, steps int) jit.Array {
	grad := jit.Grad[func(jit.Array) jit.Array](f)
	for i := 0; i < steps; i++ {
		g := grad(x)
		x = x.Sub(g.Mul(Armijo(f, x, g.Neg(), g, 0.1)))
	}
	return x
}
