// linesearchgd minimises the chained Rosenbrock function with steepest
// descent and an Armijo backtracking line search. The solver loop lives on
// the host (package optim) and decides every step size; the objective, its
// gradient and the trial points are jitted.
package main

import (
	"fmt"
	"math"

	"corpus/linesearchgd/optim"

	"github.com/jitlint/jitlint/jit"
)

const (
	dim     = 64
	nChunks = 32
)

// Rosenbrock is sum_i 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2, vectorised.
func Rosenbrock(x jit.Array) jit.Array {
	n := x.Shape()[0]
	head := x.Slice([]int{0}, []int{n - 1})
	tail := x.Slice([]int{1}, []int{n})
	a := tail.Sub(head.Mul(head))
	b := head.Neg().Add(1)
	return a.Mul(a).Mul(100).Add(b.Mul(b)).Sum()
}

// ReferenceRosenbrock is the term-by-term port of the NumPy reference the
// vectorised version is checked against.
func ReferenceRosenbrock(x jit.Array) jit.Array {
	n := x.Shape()[0]
	total := jit.Zeros(jit.Float32)
	for i := 0; i < n-1; i++ { // want unrolledloop
		xi := x.Slice([]int{i}, []int{i + 1})
		xj := x.Slice([]int{i + 1}, []int{i + 2})
		d := xj.Sub(xi.Mul(xi))
		e := xi.Neg().Add(1)
		total = total.Add(d.Mul(d).Mul(100).Add(e.Mul(e)).Sum())
	}
	return total
}

// ChunkedSqNorm sums squares in nChunks partial sums first, which keeps the
// float32 rounding error of long vectors down.
func ChunkedSqNorm(g jit.Array) jit.Array {
	n := g.Shape()[0]
	per := n / nChunks
	partial := make([]jit.Array, 0, nChunks)
	for c := 0; c < nChunks; c++ {
		blk := g.Slice([]int{c * per}, []int{(c + 1) * per})
		partial = append(partial, blk.Mul(blk).Sum().Reshape(1))
	}
	return jit.Concatenate(0, partial...).Sum()
}

// TrialPoint returns x - t*g and the objective there. t is static: it is a
// step size, so it was made a hyperparameter of the compiled program.
func TrialPoint(x, g jit.Array, t float64) (jit.Array, jit.Array) {
	xn := x.Sub(g.Mul(t))
	return xn, Rosenbrock(xn)
}

type problemSet struct {
	loss  *jit.Func[func(jit.Array) jit.Array]
	grad  *jit.Func[func(jit.Array) jit.Array]
	trial *jit.Func[func(jit.Array, jit.Array, float64) (jit.Array, jit.Array)]
}

func main() {
	evals := 0
	ps := problemSet{
		loss: jit.Jit(func(x jit.Array) jit.Array {
			evals++ // want traceeffect
			return Rosenbrock(x)
		}),
		grad:  jit.Jit(jit.Grad[func(jit.Array) jit.Array](Rosenbrock)),
		trial: jit.Jit(TrialPoint, jit.StaticArgnums(2)),
	}
	gradNorm := jit.Jit(ChunkedSqNorm)
	reference := jit.Jit(ReferenceRosenbrock)

	x0 := make([]float32, dim)
	for i := range x0 {
		x0[i] = float32(1.15 + 0.01*float64(i%7))
	}
	ref := reference.Call(jit.FromSlice(x0)).Item()
	vec := ps.loss.Call(jit.FromSlice(x0)).Item()
	fmt.Printf("f(x0): reference %.4f vectorised %.4f\n", ref, vec)

	value := func(x []float32) float64 { return ps.loss.Call(jit.FromSlice(x)).Item() }
	gradient := func(x []float32) []float32 { return ps.grad.Call(jit.FromSlice(x)).Float32s() }

	// Phase 1: classic backtracking from a fixed initial step. t only ever
	// takes a handful of values (0.002, 0.001, 0.0005), so the static
	// argument compiles a few programs and then hits.
	fixed := optim.Problem{
		Value:    value,
		Gradient: gradient,
		Trial: func(x, g []float32, t float64) ([]float32, float64) {
			xn, fn := ps.trial.Call(jit.FromSlice(x), jit.FromSlice(g), t)
			return xn.Float32s(), fn.Item()
		},
	}
	opts := optim.Options{
		Iters:       40,
		LS:          optim.LineSearch{Shrink: 0.5, C1: 1e-4, MaxBacktracks: 3},
		InitialStep: func(int, []float32, []float32) float64 { return 0.002 },
		Log: func(it int, f, t float64) {
			if it%10 == 0 {
				fmt.Printf("  fixed it=%2d f=%10.5f t=%g\n", it, f, t)
			}
		},
	}
	x1, r1 := optim.GradientDescent(fixed, x0, opts)
	fmt.Printf("phase 1: f=%.5f after %d iterations, %d trials, trial compiles so far %d\n",
		r1.F, r1.Iters, r1.Trials, ps.trial.Stats().Compiles)

	// Phase 2: Barzilai-Borwein initial steps. Much faster convergence, but
	// every BB step is a fresh float, and t is static.
	bb := optim.Problem{
		Value:    value,
		Gradient: gradient,
		Trial: func(x, g []float32, t float64) ([]float32, float64) {
			xn, fn := ps.trial.Call(jit.FromSlice(x), jit.FromSlice(g), t) // want staticargs
			return xn.Float32s(), fn.Item()
		},
	}
	opts.Iters = 12
	opts.LS.MaxBacktracks = 6
	opts.InitialStep = optim.BarzilaiBorwein(0.002)
	opts.Log = func(it int, f, t float64) {
		fmt.Printf("  bb    it=%2d f=%10.5f t=%.3g\n", it, f, t)
	}
	x2, r2 := optim.GradientDescent(bb, x1, opts)

	gn := gradNorm.Call(ps.grad.Call(jit.FromSlice(x2))).Item()
	converged := !math.IsNaN(gn) && gn < 1
	fmt.Printf("phase 2: f=%.5f after %d iterations, %d trials, |g|=%.4f converged=%v\n", r2.F, r2.Iters, r2.Trials, math.Sqrt(gn), converged)
	fmt.Printf("loss evaluations counted: %d (calls made: %d)\n", evals, ps.loss.Stats().Hits+ps.loss.Stats().Compiles)
	fmt.Printf("trial compiles: %d, grad compiles: %d\n", ps.trial.Stats().Compiles, ps.grad.Stats().Compiles)
}
