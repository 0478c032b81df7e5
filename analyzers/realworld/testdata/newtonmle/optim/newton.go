// Package optim has the iteration drivers shared by the Newton fits: a host
// loop with a convergence test, and two ways to run a fixed number of steps
// inside a traced function.
package optim

import (
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Iterate applies step n times with a plain Go loop.
func Iterate[S any](step func(S) S, s S, n int) S {
	for i := 0; i < n; i++ {
		s = step(s)
	}
	return s
}

// IterateLoop applies step n times as one fori_loop.
func IterateLoop[S any](step func(S) S, s S, n int) S {
	return jit.ForiLoop(0, n, func(_ jit.Array, c S) S { return step(c) }, s)
}

// HostOptions configures Solve.
type HostOptions struct {
	MaxIter int
	Tol     float64
	// Log is called after every step with the new iterate.
	Log func(it int, x float64)
}

// Solve runs x = step(x) on the host until |dx| < Tol or MaxIter steps.
func Solve(step func(jit.Array) jit.Array, x jit.Array, o HostOptions) (jit.Array, int) {
	prev := x.Item()
	for it := 1; it <= o.MaxIter; it++ {
		x = step(x)
		cur := x.Item()
		if o.Log != nil {
			o.Log(it, cur)
		}
		if math.Abs(cur-prev) < o.Tol {
			return x, it
		}
		prev = cur
	}
	return x, o.MaxIter
}
