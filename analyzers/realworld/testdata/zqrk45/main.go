// Command zqrk45 integrates an SEIR epidemic model with a lockdown that
// ramps in around day 40, using an embedded Dormand-Prince 5(4) pair with
// step-size control. Accepted steps are collected into growing slices and a
// live "burden" figure (infected person-days so far) is recomputed after
// each step for the dashboard.
package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const nState = 4 // S, E, I, R

// SEIR holds the rates as arrays so fitted values can be swapped in.
type SEIR struct {
	Beta, Sigma, Gamma jit.Array
}

// Tol is part of the compiled step: a new tolerance compiles a new step.
type Tol struct {
	Rtol float64 `jit:"static"`
	Atol float64 `jit:"static"`
}

// Dormand-Prince tableau.
var (
	dpA = [7][6]float64{
		{},
		{1.0 / 5},
		{3.0 / 40, 9.0 / 40},
		{44.0 / 45, -56.0 / 15, 32.0 / 9},
		{19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
		{9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
		{35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
	}
	dpC  = [7]float64{0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1}
	dpB5 = [7]float64{35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0}
	dpB4 = [7]float64{5179.0 / 57600, 0, 7571.0 / 16695, 393.0 / 640, -92097.0 / 339200, 187.0 / 2100, 1.0 / 40}
)

var rejections int

func comp(y jit.Array, i int) jit.Array { return y.Slice([]int{i}, []int{i + 1}) }

func rhs(t, y jit.Array, p SEIR) jit.Array {
	s, e, i := comp(y, 0), comp(y, 1), comp(y, 2)
	lockdown := t.Sub(40).Mul(0.5).Logistic().Mul(0.6)
	inf := p.Beta.Mul(lockdown.Neg().Add(1)).Mul(s).Mul(i)
	return jit.Concatenate(0, inf.Neg(), inf.Sub(p.Sigma.Mul(e)), p.Sigma.Mul(e).Sub(p.Gamma.Mul(i)), p.Gamma.Mul(i))
}

// dopri takes one embedded step and returns the 5th-order solution and the
// scaled RMS error estimate (accept when <= 1).
func dopri(t, y, h jit.Array, p SEIR, tol Tol) (jit.Array, jit.Array) {
	var k [7]jit.Array
	k[0] = rhs(t, y, p)
	for i := 1; i < 7; i++ {
		acc := y
		for j := 0; j < i; j++ {
			if dpA[i][j] != 0 {
				acc = acc.Add(k[j].Mul(h.Mul(dpA[i][j])))
			}
		}
		k[i] = rhs(t.Add(h.Mul(dpC[i])), acc, p)
	}
	y5, y4 := y, y
	for i := range k {
		y5 = y5.Add(k[i].Mul(h.Mul(dpB5[i])))
		y4 = y4.Add(k[i].Mul(h.Mul(dpB4[i])))
	}
	scale := y.Abs().Max(y5.Abs()).Mul(tol.Rtol).Add(tol.Atol)
	return y5, y5.Sub(y4).Div(scale).Pow(2).Mean().Sqrt()
}

// burden is the trapezoid integral of I over the trajectory so far.
func burden(ts, traj jit.Array) jit.Array {
	n := ts.Shape()[0]
	inf := traj.Slice([]int{0, 2}, []int{n, 3}).Reshape(n)
	dt := ts.Slice([]int{1}, []int{n}).Sub(ts.Slice([]int{0}, []int{n - 1}))
	mid := inf.Slice([]int{1}, []int{n}).Add(inf.Slice([]int{0}, []int{n - 1})).Mul(0.5)
	return dt.Mul(mid).Sum()
}

// burdenMasked is burden over a padded buffer; mask marks the valid intervals.
func burdenMasked(ts, traj, mask jit.Array) jit.Array {
	n := ts.Shape()[0]
	inf := traj.Slice([]int{0, 2}, []int{n, 3}).Reshape(n)
	dt := ts.Slice([]int{1}, []int{n}).Sub(ts.Slice([]int{0}, []int{n - 1}))
	mid := inf.Slice([]int{1}, []int{n}).Add(inf.Slice([]int{0}, []int{n - 1})).Mul(0.5)
	return dt.Mul(mid).Mul(mask.Slice([]int{1}, []int{n})).Sum()
}

type Solution struct {
	T      []float32
	Y      []float32 // row-major [len(T), nState]
	Burden float64   // infected person-days so far
}

func integrateHost(y0 jit.Array, p SEIR, tol Tol, t1 float64) Solution {
	step := jit.Jit(dopri)
	live := jit.Jit(burden)
	t, h, y := 0.0, 0.5, y0
	sol := Solution{T: []float32{0}, Y: y0.Float32s()}
	for t < t1 {
		h = math.Min(h, t1-t)
		yNew, errN := step.Call(jit.Scalar(float32(t)), y, jit.Scalar(float32(h)), p, tol)
		e := errN.Item()
		if e <= 1 {
			t, y = t+h, yNew
			sol.T = append(sol.T, float32(t))
			sol.Y = append(sol.Y, y.Float32s()...)
			sol.Burden = live.Call(jit.FromSlice(sol.T), jit.FromSlice(sol.Y, len(sol.T), nState)).Item() // want shapechurn
		}
		h *= math.Min(5, math.Max(0.2, 0.9*math.Pow(e+1e-10, -0.2)))
	}
	fmt.Printf("host controller: %d steps, burden=%.3f, step compiles=%d\n", len(sol.T)-1, sol.Burden, step.Stats().Compiles)
	return sol
}

// fusedNaive was the first try at moving rejection into the compiled step.
func fusedNaive(t, y, h jit.Array, p SEIR, tol Tol) (jit.Array, jit.Array) {
	yNew, errN := dopri(t, y, h, p, tol)
	for errN.Gt(1).Bool() { // want tracedbool
		h = h.Mul(0.5)
		yNew, errN = dopri(t, y, h, p, tol)
	}
	return yNew, t.Add(h)
}

type retry struct{ H, Y, Err jit.Array }

// fusedStep retries with half the step until the error is acceptable, then
// proposes the next step size; all inside one compiled program.
func fusedStep(t, y, h jit.Array, p SEIR, tol Tol) (jit.Array, jit.Array, jit.Array) {
	y5, e := dopri(t, y, h, p, tol)
	out := jit.WhileLoop(func(c retry) jit.Array { return c.Err.Gt(1) },
		func(c retry) retry {
			rejections++ // want traceeffect
			hh := c.H.Mul(0.5)
			yy, ee := dopri(t, y, hh, p, tol)
			return retry{H: hh, Y: yy, Err: ee}
		}, retry{H: h, Y: y5, Err: e})
	fac := out.Err.Add(1e-10).Pow(-0.2).Mul(0.9).Max(0.2).Min(5)
	return out.Y, t.Add(out.H), out.H.Mul(fac)
}

func integrateFused(y0 jit.Array, p SEIR, tol Tol, t1 float64) float64 {
	fused := jit.Jit(fusedStep)
	live := jit.Jit(burdenMasked)
	t, h, y := jit.Scalar(float32(0)), jit.Scalar(float32(0.5)), y0
	capacity, n := 16, 1
	ts := make([]float32, capacity)
	traj := make([]float32, capacity*nState)
	copy(traj, y0.Float32s())
	var b jit.Array
	for t.Item() < t1 {
		h = h.Min(jit.Scalar(float32(t1)).Sub(t))
		y, t, h = fused.Call(t, y, h, p, tol)
		if n == capacity {
			capacity *= 2
			ts = append(ts, make([]float32, capacity-n)...)
			traj = append(traj, make([]float32, (capacity-n)*nState)...)
		}
		ts[n] = float32(t.Item())
		copy(traj[n*nState:], y.Float32s())
		n++
		mask := make([]float32, capacity)
		for i := 0; i < n; i++ {
			mask[i] = 1
		}
		b = live.Call(jit.FromSlice(ts), jit.FromSlice(traj, capacity, nState), jit.FromSlice(mask))
	}
	fmt.Printf("fused (rtol=%g): %d steps, buffer=%d, burden=%.3f, live compiles=%d\n",
		tol.Rtol, n-1, capacity, b.Item(), live.Stats().Compiles)
	return b.Item()
}

// rk4Reference is a fixed-step classical RK4 run used to validate day 60.
func rk4Reference(y jit.Array, p SEIR) jit.Array {
	const steps, dt = 60, 1.0
	t := jit.Scalar(float32(0))
	for n := 0; n < steps; n++ { // want unrolledloop
		k1 := rhs(t, y, p)
		k2 := rhs(t.Add(dt/2), y.Add(k1.Mul(dt/2)), p)
		k3 := rhs(t.Add(dt/2), y.Add(k2.Mul(dt/2)), p)
		k4 := rhs(t.Add(dt), y.Add(k3.Mul(dt)), p)
		y = y.Add(k1.Add(k2.Mul(2)).Add(k3.Mul(2)).Add(k4).Mul(dt / 6))
		t = t.Add(dt)
	}
	return y
}

func main() {
	p := SEIR{Beta: jit.Scalar(float32(0.6)), Sigma: jit.Scalar(float32(0.2)), Gamma: jit.Scalar(float32(0.1))}
	y0 := jit.FromSlice([]float32{0.99, 0.005, 0.005, 0})
	loose := Tol{Rtol: 1e-3, Atol: 1e-6}
	tight := Tol{Rtol: 1e-6, Atol: 1e-9}

	sol := integrateHost(y0, p, loose, 60)
	last := sol.Y[len(sol.Y)-nState:]
	fmt.Printf("day 60 (adaptive): S=%.4f I=%.4f\n", last[0], last[2])
	ref := jit.Jit(rk4Reference).Call(y0, p)
	fmt.Println("day 60 (RK4, dt=1):", ref)

	func() {
		defer func() {
			var je *jit.Error
			if r := recover(); r != nil {
				if err, ok := r.(error); ok && errors.As(err, &je) {
					fmt.Println("fused naive step not traceable:", je.Kind)
					return
				}
				panic(r)
			}
		}()
		jit.Jit(fusedNaive).Call(jit.Scalar(float32(0)), y0, jit.Scalar(float32(0.5)), p, loose)
	}()

	for _, tol := range []Tol{loose, tight} {
		integrateFused(y0, p, tol, 60)
	}
	fmt.Println("rejections seen while tracing:", rejections)
}
