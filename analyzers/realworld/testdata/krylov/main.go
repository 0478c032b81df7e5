// Command krylov ports two small solvers from a SciPy/JAX notebook:
//
//   - conjugate gradients for the 2-D Poisson problem -lap(u) = f on the unit
//     square (matrix-free 5-point operator, homogeneous Dirichlet boundary),
//     first as a literal transcription of the textbook loop, then as a
//     fixed-iteration kernel, then with lax.while_loop and a tolerance test;
//   - Newton's method for Kepler's equation E - e sin(E) = M over a batch of
//     mean anomalies, with the derivative from vmap(grad(residual)) and the
//     convergence test on the host.
package main

import (
	"fmt"
	"math"

	"corpus/numkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	gridN        = 32
	cgFixedIters = 48
	cgMaxIter    = 200
	smoothSweeps = 4
)

// poissonOp is A u = -lap(u) with zero boundary.
func poissonOp(u jit.Array, dx float64) jit.Array {
	return numkit.Laplacian2D(u, dx).Neg()
}

// CGTextbook is scipy's cg loop written out as in the notes, on concrete
// arrays: it stops as soon as ||r|| < tol ||b||. It is the reference the
// jitted solvers are checked against.
func CGTextbook(b jit.Array, dx, tol float64) jit.Array {
	x := jit.Zeros(b.Dtype(), b.Shape()...)
	r, p := b, b
	rr := numkit.Dot(r, r)
	bnorm := numkit.Norm(b)
	for k := 0; k < cgMaxIter; k++ {
		ap := poissonOp(p, dx)
		alpha := rr.Div(numkit.Dot(p, ap))
		x = x.Add(p.Mul(alpha))
		r = r.Sub(ap.Mul(alpha))
		rrNew := numkit.Dot(r, r)
		if rrNew.Sqrt().Lt(bnorm.Mul(tol)).Bool() {
			break
		}
		p = r.Add(p.Mul(rrNew.Div(rr)))
		rr = rrNew
	}
	return x
}

// CGFixed runs a fixed number of CG iterations with no data-dependent exit,
// the form the first GPU port used.
func CGFixed(b jit.Array) jit.Array {
	dx := 1.0 / (gridN - 1)
	x := jit.Zeros(b.Dtype(), b.Shape()...)
	r, p := b, b
	rr := numkit.Dot(r, r)
	for k := 0; k < cgFixedIters; k++ { // want unrolledloop
		ap := poissonOp(p, dx)
		alpha := rr.Div(numkit.Dot(p, ap))
		x = x.Add(p.Mul(alpha))
		r = r.Sub(ap.Mul(alpha))
		rrNew := numkit.Dot(r, r)
		p = r.Add(p.Mul(rrNew.Div(rr)))
		rr = rrNew
	}
	return x
}

// cgState is the while-loop carry.
type cgState struct {
	X, R, P, RR jit.Array
	K           jit.Array
}

// SolveCG is CG with a Jacobi-smoothed initial guess and a while loop that
// stops at ||r|| <= tol ||b|| or after maxIter iterations.
func SolveCG(maxIter int, dx float64, b, tol jit.Array) (jit.Array, jit.Array, jit.Array) {
	x0 := numkit.JacobiSweeps(jit.Zeros(b.Dtype(), b.Shape()...), b, dx, smoothSweeps)
	r0 := b.Sub(poissonOp(x0, dx))
	bnorm := numkit.Norm(b)
	init := cgState{X: x0, R: r0, P: r0, RR: numkit.Dot(r0, r0), K: jit.Scalar(int32(0))}
	cond := func(s cgState) jit.Array {
		return s.K.Lt(maxIter).And(s.RR.Sqrt().Gt(tol.Mul(bnorm)))
	}
	body := func(s cgState) cgState {
		ap := poissonOp(s.P, dx)
		alpha := s.RR.Div(numkit.Dot(s.P, ap))
		x := s.X.Add(s.P.Mul(alpha))
		r := s.R.Sub(ap.Mul(alpha))
		rr := numkit.Dot(r, r)
		p := r.Add(s.P.Mul(rr.Div(s.RR)))
		return cgState{X: x, R: r, P: p, RR: rr, K: s.K.Add(1)}
	}
	s := jit.WhileLoop(cond, body, init)
	return s.X, s.K, s.RR.Sqrt().Div(bnorm)
}

// keplerResidual is f(E) = E - e sin(E) - M for one anomaly.
func keplerResidual(E, M, ecc jit.Array) jit.Array {
	return E.Sub(E.Sin().Mul(ecc)).Sub(M)
}

// dKepler is f'(E) for every element of a batch.
var dKepler = jit.Vmap(jit.Grad[func(E, M, ecc jit.Array) jit.Array](keplerResidual),
	jit.InAxes(0, 0, jit.NotMapped))

// NewtonSweep takes a few Newton steps for every anomaly and returns the new
// iterate and the largest |f(E)|.
func NewtonSweep(E, M jit.Array, ecc float64) (jit.Array, jit.Array) {
	e := jit.Scalar(float32(ecc))
	for it := 0; it < 3; it++ {
		f := keplerResidual(E, M, e)
		E = E.Sub(f.Div(dKepler(E, M, e)))
	}
	return E, keplerResidual(E, M, e).Abs().MaxReduce()
}

// rhsAndExact builds a manufactured discrete problem: pick a smooth u with
// zero boundary values and set b = A u, so the solver error is measurable.
func rhsAndExact() (b, exact jit.Array, dx float64) {
	xs, ys, dx := numkit.Grid(gridN)
	u := make([]float32, len(xs))
	for i := range xs {
		x, y := float64(xs[i]), float64(ys[i])
		u[i] = float32(math.Sin(math.Pi*x) * y * (1 - y) * math.Exp(2*x*y))
	}
	exact = jit.FromSlice(u, gridN, gridN)
	return poissonOp(exact, dx), exact, dx
}

func main() {
	b, exact, dx := rhsAndExact()
	errVs := func(u jit.Array) float64 { return numkit.MaxAbsDiff(u.Float32s(), exact.Float32s()) }

	// 1. The textbook loop, eagerly: concrete arrays, so .Item() is fine.
	u := CGTextbook(b, dx, 1e-5)
	fmt.Printf("eager textbook CG:       max error vs exact %.2e\n", errVs(u))

	// 2. Fixed iteration count.
	fixed := jit.Jit(CGFixed)
	u = fixed.Call(b)
	fmt.Printf("jit CG, %d fixed iters:   max error vs exact %.2e\n", cgFixedIters, errVs(u))

	// 3. while_loop with a tolerance sweep: one compile for every tol.
	solve := jit.Jit(SolveCG, jit.StaticArgnums(0, 1))
	for _, tol := range []float32{1e-2, 1e-3, 1e-4, 1e-5} {
		x, iters, rel := solve.Call(cgMaxIter, dx, b, jit.Scalar(tol))
		fmt.Printf("while-loop CG tol=%.0e: %3d iterations, rel. residual %.2e, max error %.2e\n",
			tol, iters.Int(), rel.Item(), errVs(x))
	}
	fmt.Printf("SolveCG compiles=%d hits=%d\n", solve.Stats().Compiles, solve.Stats().Hits)

	// 4. Kepler's equation for two bodies at a series of epochs.
	const nAnom = 256
	sweep := jit.Jit(NewtonSweep, jit.StaticArgnums(2))
	bodies := []struct {
		name string
		ecc  float64
	}{{"earth", 0.0167}, {"halley", 0.967}}
	for epoch := 0; epoch < 4; epoch++ {
		ms := make([]float32, nAnom)
		for i := range ms {
			ms[i] = float32(2*math.Pi*float64(i)/nAnom + 0.1*float64(epoch))
		}
		M := jit.FromSlice(ms)
		for _, body := range bodies {
			// Start from E = M + e sin M (Danby's first guess) on the host.
			e0 := make([]float32, nAnom)
			for i, m := range ms {
				e0[i] = float32(float64(m) + body.ecc*math.Sin(float64(m)))
			}
			E := jit.FromSlice(e0)
			sweeps, res := 0, math.Inf(1)
			for res > 1e-6 && sweeps < 20 {
				var r jit.Array
				E, r = sweep.Call(E, M, body.ecc)
				res = r.Item()
				sweeps++
			}
			fmt.Printf("epoch %d %-6s e=%.4f: %d sweeps, max |f(E)| = %.1e, E[64]=%.5f\n",
				epoch, body.name, body.ecc, sweeps, res, E.Float32s()[64])
		}
	}
	s := sweep.Stats()
	fmt.Printf("NewtonSweep compiles=%d hits=%d signatures=%d\n", s.Compiles, s.Hits, len(sweep.Signatures()))
}
