// Command odeint integrates a batch of Van der Pol oscillators with an
// adaptive Dormand–Prince (RK45) method, ported from a solve_ivp notebook
// that was later rewritten with jax.jit + jax.vmap. The Runge–Kutta step is
// jitted and vmapped over the batch; step-size control (accept/reject and the
// new h) stays on the host, as in scipy's RK45 class. A fixed-step RK4 run
// with lax.scan gives a reference solution, and vmap(grad) of the RK4
// integrator gives the sensitivity of the final state to the damping mu.
package main

import (
	"fmt"
	"math"
	"os"

	"corpus/numkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	rtol     = 1e-4
	atol     = 1e-6
	tEnd     = 6.0
	maxSteps = 2000
	batch    = 16
)

// Dormand–Prince 5(4) coefficients (scipy.integrate._ivp.rk.RK45).
var (
	dpA = [][]float64{
		{1.0 / 5},
		{3.0 / 40, 9.0 / 40},
		{44.0 / 45, -56.0 / 15, 32.0 / 9},
		{19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
		{9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
		{35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
	}
	dpB5 = []float64{35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0}
	dpB4 = []float64{5179.0 / 57600, 0, 7571.0 / 16695, 393.0 / 640, -92097.0 / 339200, 187.0 / 2100, 1.0 / 40}
)

// nfev counts right-hand-side evaluations, like solve_ivp's sol.nfev.
var nfev int

// vanDerPol is dy/dt for one oscillator, y = (x, v): d²x/dt² - mu (1 - x²) dx/dt + x = 0.
func vanDerPol(y, mu jit.Array) jit.Array {
	nfev++ // want traceeffect
	x := y.Slice([]int{0}, []int{1})
	v := y.Slice([]int{1}, []int{2})
	dv := mu.Mul(x.Mul(x).Neg().Add(1)).Mul(v).Sub(x)
	return jit.Concatenate(0, v, dv)
}

// doPriStep takes one Dormand–Prince step of size h for one oscillator and
// returns the 5th-order solution and the embedded error estimate.
func doPriStep(y, mu, h jit.Array) (jit.Array, jit.Array) {
	k := []jit.Array{vanDerPol(y, mu)}
	for i := 1; i < 7; i++ {
		yi := y
		for j, a := range dpA[i-1] {
			if a != 0 {
				yi = yi.Add(k[j].Mul(h.Mul(a)))
			}
		}
		k = append(k, vanDerPol(yi, mu))
	}
	y5 := y
	errEst := jit.Zeros(y.Dtype(), y.Shape()...)
	for j := range k {
		if dpB5[j] != 0 {
			y5 = y5.Add(k[j].Mul(h.Mul(dpB5[j])))
		}
		errEst = errEst.Add(k[j].Mul(h.Mul(dpB5[j] - dpB4[j])))
	}
	return y5, errEst
}

// BatchStep advances every oscillator by h and returns the new states and
// the worst scaled RMS error over the batch (accept the step when <= 1).
func BatchStep(ys, mus, h jit.Array) (jit.Array, jit.Array) {
	step := jit.Vmap(doPriStep, jit.InAxes(0, 0, jit.NotMapped))
	y5, e := step(ys, mus, h)
	scale := ys.Abs().Max(y5.Abs()).Mul(rtol).Add(atol)
	ratio := e.Div(scale)
	return y5, ratio.Mul(ratio).Mean(1).Sqrt().MaxReduce()
}

// rk4Step is one classical RK4 step for one oscillator.
func rk4Step(y, mu jit.Array, dt float64) jit.Array {
	k1 := vanDerPol(y, mu)
	k2 := vanDerPol(y.Add(k1.Mul(dt/2)), mu)
	k3 := vanDerPol(y.Add(k2.Mul(dt/2)), mu)
	k4 := vanDerPol(y.Add(k3.Mul(dt)), mu)
	inc := k1.Add(k2.Mul(2)).Add(k3.Mul(2)).Add(k4)
	return y.Add(inc.Mul(dt / 6))
}

// FinalState integrates one oscillator with nSteps RK4 steps of size dt
// (lax.scan over time, so the trace does not grow with nSteps).
func FinalState(nSteps int, dt float64, y0, mu jit.Array) jit.Array {
	y, _ := jit.ScanN(func(y jit.Array) (jit.Array, struct{}) {
		return rk4Step(y, mu, dt), struct{}{}
	}, y0, nSteps)
	return y
}

const refSteps, refDt = 240, tEnd / 240

// finalX is x(tEnd) from the RK4 reference, as a function of mu (for grad).
func finalX(mu, y0 jit.Array) jit.Array {
	return FinalState(refSteps, refDt, y0, mu).Slice([]int{0}, []int{1}).Sum()
}

// Energy is the mean oscillator energy (x² + v²)/2 over the batch, printed
// from inside the compiled program at every call.
func Energy(ys jit.Array) jit.Array {
	e := ys.Mul(ys).Sum(1).Mul(0.5).Mean()
	jit.DebugPrint("  mean energy (device): %v", e)
	return e
}

func initialBatch() (ys, mus []float32) {
	ys = make([]float32, 0, 2*batch)
	mus = make([]float32, 0, batch)
	for i := 0; i < batch; i++ {
		theta := 2 * math.Pi * float64(i) / batch
		ys = append(ys, float32(2*math.Cos(theta)), float32(2*math.Sin(theta)))
		mus = append(mus, float32(0.2+0.1*float64(i)))
	}
	return ys, mus
}

func main() {
	ys0, mus0 := initialBatch()
	ys := jit.FromSlice(ys0, batch, 2)
	mus := jit.FromSlice(mus0)

	ckpt, err := numkit.NewCheckpointer("odeint-")
	if err != nil {
		panic(err)
	}
	defer ckpt.Close()

	step := jit.Jit(BatchStep)
	energy := jit.Jit(Energy)
	log := numkit.NewRunLog(os.Stdout, 10)

	t, h := 0.0, 0.01
	accepted, rejected := 0, 0
	fmt.Printf("RK45 on %d Van der Pol oscillators, mu in [%.1f, %.1f], t in [0, %.0f]\n",
		batch, mus0[0], mus0[batch-1], tEnd)
	energy.Call(ys)
	for t < tEnd && accepted+rejected < maxSteps {
		if t+h > tEnd {
			h = tEnd - t
		}
		y5, errNorm := step.Call(ys, mus, jit.Scalar(float32(h)))
		e := errNorm.Item()
		if e <= 1 {
			t += h
			ys = y5
			accepted++
			log.Step(accepted, "t=%.4f h=%.5f err=%.3f", t, h, e)
			if accepted%10 == 0 {
				if err := ckpt.Save(accepted, ys); err != nil {
					panic(err)
				}
			}
		} else {
			rejected++
		}
		// Standard controller: h_new = h * clip(0.9 * err^(-1/5), 0.2, 5).
		fac := 0.9 * math.Pow(math.Max(e, 1e-10), -0.2)
		h *= math.Min(5, math.Max(0.2, fac))
	}
	energy.Call(ys)
	s := step.Stats()
	fmt.Printf("accepted %d, rejected %d steps; BatchStep compiles=%d hits=%d; nfev=%d\n",
		accepted, rejected, s.Compiles, s.Hits, nfev)

	if ckpt.Count() > 0 {
		last, err := ckpt.Latest()
		if err == nil {
			fmt.Printf("%d checkpoints; latest has shape %v, x[0]=%.4f\n", ckpt.Count(), last.Shape(), last.Float32s()[0])
		}
	}

	// Fixed-step RK4 reference over the same interval.
	ref := jit.Jit(jit.Vmap(func(y0, mu jit.Array) jit.Array {
		return FinalState(refSteps, refDt, y0, mu)
	}))
	yRef := ref.Call(jit.FromSlice(ys0, batch, 2), mus)
	fmt.Printf("max |RK45 - RK4 reference| at t=%.0f: %.2e\n", tEnd,
		numkit.MaxAbsDiff(ys.Float32s(), yRef.Float32s()))

	// d x(tEnd) / d mu for every oscillator: vmap(grad) of the RK4 integrator.
	dmu := jit.Jit(jit.Vmap(jit.Grad[func(mu, y0 jit.Array) jit.Array](finalX)))
	sens := dmu.Call(mus, jit.FromSlice(ys0, batch, 2)).Float32s()

	// Check two of them with central differences on the host.
	const eps = 1e-2
	for _, i := range []int{0, batch - 1} {
		shift := make([]float32, batch)
		shift[i] = eps
		up := jit.FromSlice(mus0).Add(jit.FromSlice(shift))
		down := jit.FromSlice(mus0).Sub(jit.FromSlice(shift))
		xu := ref.Call(jit.FromSlice(ys0, batch, 2), up).Float32s()[2*i]
		xd := ref.Call(jit.FromSlice(ys0, batch, 2), down).Float32s()[2*i]
		fmt.Printf("mu=%.2f: dx/dmu grad=%+.4f  finite diff=%+.4f\n",
			mus0[i], sens[i], (xu-xd)/(2*eps))
	}
	fmt.Printf("reference compiles=%d hits=%d\n", ref.Stats().Compiles, ref.Stats().Hits)
}
