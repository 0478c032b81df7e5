// Command pinn fits a physics-informed model of d²u/dt² + u = 0 on [0, pi]:
// collocation points are sampled on the host every step. A fixed number of
// points keeps one shape; the refinement schedule adds points every step
// (one compile per step). A viscosity constant is a captured scalar read in
// traced code (concrete: fine); the early stop tests the traced residual.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

var nu = jit.Scalar(float32(0.01))

// model is a one-hidden-layer network u(t) evaluated at the points.
func model(w, t jit.Array) jit.Array {
	return t.Reshape(t.Shape()[0], 1).MatMul(w).Sin().Sum(1)
}

// residual is the finite-difference residual of d²u/dt² + u at the points.
func residual(w, t jit.Array) jit.Array {
	const h = 1e-2
	u := model(w, t)
	upp := model(w, t.Add(h)).Add(model(w, t.Sub(h))).Sub(u.Mul(2)).Div(h * h)
	r := upp.Add(u)
	if nu.Item() > 0 {
		r = r.Add(upp.Mul(nu))
	}
	return r.Mul(r).Mean()
}

func step(w, t jit.Array) jit.Array {
	g := t.Reshape(t.Shape()[0], 1).MatMul(jit.Ones(jit.Float32, 1, 4)).Cos().Mean(0).Reshape(1, 4)
	return w.Sub(g.Mul(residual(w, t)).Mul(1e-3))
}

// fitUntil runs up to 4 steps and stops when the residual is small.
func fitUntil(w, t jit.Array) jit.Array {
	for range 4 {
		w = step(w, t)
		if residual(w, t).Lt(1e-6).Bool() { // want tracedbool
			break
		}
	}
	return w
}

func sample(rng *rand.Rand, n int) jit.Array {
	pts := make([]float32, n)
	for i := range pts {
		pts[i] = float32(rng.Float64() * math.Pi)
	}
	return jit.FromSlice(pts, n)
}

func main() {
	rng := rand.New(rand.NewSource(1))
	f := jit.Jit(step)
	w := jit.Full(0.5, jit.Float32, 1, 4)
	for range 20 {
		w = f.Call(w, sample(rng, 64))
	}
	fmt.Println("fixed points: compiles", f.Stats().Compiles)

	// Refinement: 16 more collocation points every step.
	for s := range 10 {
		w = f.Call(w, sample(rng, 32+16*s)) // want shapechurn
	}
	fmt.Println("refined: compiles", f.Stats().Compiles, "residual", jit.Jit(residual).Call(w, sample(rng, 64)).Item())

	fmt.Println(jit.Jit(fitUntil).Call(w, sample(rng, 64)))
}
