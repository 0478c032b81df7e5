// Command heat2d solves the 2-D heat equation u_t = alpha lap(u) + q on the
// unit square with zero Dirichlet boundary, ported from a NumPy stencil
// script and its JAX version:
//
//   - explicit FTCS time stepping with lax.fori_loop sub-steps, written out
//     as frames with a checkpoint per frame and a restart from the last one;
//   - a diffusivity that ramps up over the frames;
//   - backward Euler and Crank–Nicolson steps with Jacobi inner solves;
//   - an ensemble over diffusivities with vmap, and the inverse problem
//     (recover alpha from a final field) with value_and_grad through the
//     time loop and a host-side Barzilai–Borwein iteration.
package main

import (
	"fmt"
	"math"
	"os"

	"corpus/numkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	gridN          = 48
	subSteps       = 50
	nFrames        = 6
	implicitSweeps = 40
	cnSweeps       = 8
)

var dx = 1.0 / (gridN - 1)

// stableDt is the FTCS limit dx²/(4 alpha) with a safety factor.
func stableDt(alphaMax float64) float64 { return 0.8 * dx * dx / (4 * alphaMax) }

// Advance takes nSub explicit Euler steps of u_t = alpha lap(u) + q.
func Advance(nSub int, u, q, alpha, dt jit.Array) jit.Array {
	return jit.ForiLoop(0, nSub, func(_ jit.Array, u jit.Array) jit.Array {
		return u.Add(numkit.Laplacian2D(u, dx).Mul(alpha).Add(q).Mul(dt))
	}, u)
}

// ImplicitStep is one backward-Euler step: (I - alpha dt lap) u1 = u0 + dt q,
// solved with Jacobi sweeps started from u0. alphaDt and dt are static.
func ImplicitStep(alphaDt, dt float64, u, q jit.Array) jit.Array {
	b := u.Add(q.Mul(dt))
	return numkit.ShiftedJacobi(u, b, alphaDt, dx, implicitSweeps) // want unrolledloop
}

// CrankNicolsonStep: (I - c/2 lap) u1 = (I + c/2 lap) u0 + dt q, with a few
// Jacobi sweeps started from an explicit predictor.
func CrankNicolsonStep(alphaDt, dt float64, u, q jit.Array) jit.Array {
	half := alphaDt / 2
	b := u.Add(numkit.Laplacian2D(u, dx).Mul(half)).Add(q.Mul(dt))
	guess := u.Add(numkit.Laplacian2D(u, dx).Mul(alphaDt)).Add(q.Mul(dt))
	return numkit.ShiftedJacobi(guess, b, half, dx, cnSweeps)
}

// Diagnostics returns the total heat and the peak temperature.
func Diagnostics(u jit.Array) (jit.Array, jit.Array) {
	return u.Sum().Mul(dx * dx), u.MaxReduce()
}

// misfit is the mean squared difference between the field after nFit
// explicit steps with diffusivity alpha and an observed field.
func misfit(alpha, u0, q, obs jit.Array) jit.Array {
	const nFit = 40
	dt := stableDt(1.5)
	u := jit.ForiLoop(0, nFit, func(_ jit.Array, u jit.Array) jit.Array {
		return u.Add(numkit.Laplacian2D(u, dx).Mul(alpha).Add(q).Mul(dt))
	}, u0)
	d := u.Sub(obs)
	return d.Mul(d).Mean()
}

func initialField() (u0, q jit.Array) {
	xs, ys, _ := numkit.Grid(gridN)
	u := make([]float32, len(xs))
	src := make([]float32, len(xs))
	for i := range xs {
		x, y := float64(xs[i]), float64(ys[i])
		u[i] = float32(math.Exp(-80 * ((x-0.3)*(x-0.3) + (y-0.6)*(y-0.6))))
		src[i] = float32(5 * math.Exp(-200*((x-0.7)*(x-0.7)+(y-0.3)*(y-0.3))))
	}
	// Zero the boundary values.
	u0 = numkit.EmbedInterior(numkit.Interior(jit.FromSlice(u, gridN, gridN)))
	q = numkit.EmbedInterior(numkit.Interior(jit.FromSlice(src, gridN, gridN)))
	return u0, q
}

func scalar(v float64) jit.Array { return jit.Scalar(float32(v)) }

func main() {
	u0, q := initialField()
	diag := jit.Jit(Diagnostics)
	report := func(label string, u jit.Array) {
		heat, peak := diag.Call(u)
		fmt.Printf("%-28s heat %.5f  peak %.4f\n", label, heat.Item(), peak.Item())
	}
	report("initial", u0)

	ckpt, err := numkit.NewCheckpointer("heat2d-")
	if err != nil {
		panic(err)
	}
	defer ckpt.Close()

	// Frames with a ramped diffusivity alpha(frame) = 0.5 + 0.2 frame.
	alphaMax := 0.5 + 0.2*(nFrames-1)
	dt := stableDt(alphaMax)
	u := u0
	for frame := 0; frame < nFrames; frame++ {
		alpha := 0.5 + 0.2*float64(frame)
		frameStep := jit.Jit(func(u, q jit.Array) jit.Array { // want staticargs
			return Advance(subSteps, u, q, scalar(alpha), scalar(dt))
		})
		u = frameStep.Call(u, q)
		if err := ckpt.Save(frame, u); err != nil {
			panic(err)
		}
		report(fmt.Sprintf("frame %d (alpha %.1f)", frame, alpha), u)
	}

	// Restart from the last checkpoint and continue with alpha fixed.
	restart, err := ckpt.Latest()
	if err != nil {
		panic(err)
	}
	fmt.Printf("restarted from checkpoint %d of %d (max diff %.1e)\n", ckpt.Count()-1, ckpt.Count(),
		numkit.MaxAbsDiff(restart.Float32s(), u.Float32s()))
	for k := 0; k < 4; k++ {
		restart = jit.Jit(Advance, jit.StaticArgnums(0)).Call(subSteps, restart, q, scalar(alphaMax), scalar(dt))
	}
	report("continued, 4 more frames", restart)

	// Implicit schemes with a step 20x the explicit limit.
	bigDt := 20 * stableDt(1)
	implicit := jit.Jit(ImplicitStep, jit.StaticArgnums(0, 1))
	cn := jit.Jit(CrankNicolsonStep, jit.StaticArgnums(0, 1))
	ub, uc := u0, u0
	for k := 0; k < 5; k++ {
		ub = implicit.Call(bigDt, bigDt, ub, q)
		uc = cn.Call(bigDt, bigDt, uc, q)
	}
	uref := jit.Jit(Advance, jit.StaticArgnums(0)).Call(100, u0, q, scalar(1), scalar(bigDt/20))
	report("backward Euler, 5 steps", ub)
	report("Crank-Nicolson, 5 steps", uc)
	report("explicit reference", uref)
	fmt.Printf("max |BE - ref| %.2e, max |CN - ref| %.2e\n",
		numkit.MaxAbsDiff(ub.Float32s(), uref.Float32s()), numkit.MaxAbsDiff(uc.Float32s(), uref.Float32s()))

	// Ensemble over diffusivities with vmap.
	alphas := []float32{0.25, 0.5, 1, 1.5}
	ensemble := jit.Jit(jit.Vmap(func(alpha, u, q jit.Array) jit.Array {
		return Advance(subSteps, u, q, alpha, scalar(stableDt(1.5)))
	}, jit.InAxes(0, jit.NotMapped, jit.NotMapped)))
	fields := ensemble.Call(jit.FromSlice(alphas), u0, q)
	peaks := fields.MaxReduce(1, 2).Float32s()
	for i, a := range alphas {
		fmt.Printf("  ensemble alpha=%.2f  peak %.4f\n", a, peaks[i])
	}

	// Inverse problem: which alpha produced this field?
	const trueAlpha = 0.8
	obs := jit.Jit(Advance, jit.StaticArgnums(0)).Call(40, u0, q, scalar(trueAlpha), scalar(stableDt(1.5)))
	vg := jit.Jit(jit.ValueAndGrad[func(alpha, u0, q, obs jit.Array) (jit.Array, jit.Array)](misfit))
	a, step := 0.3, 50.0
	prevA, prevG := 0.0, 0.0
	log := numkit.NewRunLog(os.Stdout, 2)
	for it := 0; it < 30; it++ {
		loss, g := vg.Call(scalar(a), u0, q, obs)
		gv := g.Item()
		if it > 0 && gv != prevG {
			step = math.Abs((a - prevA) / (gv - prevG)) // Barzilai–Borwein
		}
		log.Step(it, "alpha %.5f  misfit %.3e  grad %+.3e", a, loss.Item(), gv)
		prevA, prevG = a, gv
		a -= step * gv
		if math.Abs(a-prevA) < 1e-6 {
			break
		}
	}
	fmt.Printf("recovered alpha %.4f (true %.1f); value_and_grad compiles=%d hits=%d\n",
		a, trueAlpha, vg.Stats().Compiles, vg.Stats().Hits)
}
