// Command langevin samples a correlated Gaussian with several chains of
// MALA (Metropolis-adjusted Langevin) and HMC, adapting the MALA step size
// during warmup and comparing an unrolled leapfrog with a fori_loop one.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	dim        = 3
	numChains  = 8
	warmup     = 25
	numSamples = 60
	targetMALA = 0.57
)

// gradEvals counts evaluations of the log density.
var gradEvals int

// Target is a zero-mean Gaussian given by its precision matrix.
type Target struct {
	Prec jit.Array // [dim, dim]
}

// LogDensity is the unnormalized log density of each chain's position q [chains, dim].
func LogDensity(t Target, q jit.Array) jit.Array {
	gradEvals++ // want traceeffect
	return q.MatMul(t.Prec).Mul(q).Sum(1).Mul(-0.5)
}

func potential(t Target, q jit.Array) jit.Array { return LogDensity(t, q).Sum().Neg() }

var gradU = jit.Grad[func(Target, jit.Array) jit.Array](potential, jit.Argnums(1))

// MALAStep is one Metropolis-adjusted Langevin step per chain with a fixed
// step size; it returns the new positions and the acceptance probabilities.
func MALAStep(t Target, q, noise, u jit.Array, eps float64) (jit.Array, jit.Array) {
	h := eps * eps / 2
	g := gradU(t, q)
	prop := q.Sub(g.Mul(h)).Add(noise.Mul(eps))
	gp := gradU(t, prop)
	fwd := prop.Sub(q).Add(g.Mul(h)).Pow(2).Sum(1).Div(-4 * h)
	bwd := q.Sub(prop).Add(gp.Mul(h)).Pow(2).Sum(1).Div(-4 * h)
	logA := LogDensity(t, prop).Sub(LogDensity(t, q)).Add(bwd).Sub(fwd)
	acc := logA.Min(0).Exp()
	take := u.Lt(acc).Reshape(numChains, 1)
	return jit.Where(take, prop, q), acc
}

func kinetic(p jit.Array) jit.Array { return p.Pow(2).Sum(1).Mul(0.5) }

func metropolis(t Target, q0, p0, q, p, u jit.Array) (jit.Array, jit.Array) {
	h0 := LogDensity(t, q0).Neg().Add(kinetic(p0))
	h1 := LogDensity(t, q).Neg().Add(kinetic(p))
	acc := h0.Sub(h1).Min(0).Exp()
	take := u.Lt(acc).Reshape(numChains, 1)
	return jit.Where(take, q, q0), acc
}

// HMCStep runs nLeap leapfrog steps from (q, p) and a Metropolis correction.
func HMCStep(t Target, q, p, u, eps jit.Array, nLeap int) (jit.Array, jit.Array) {
	q0, p0 := q, p
	p = p.Sub(gradU(t, q).Mul(eps.Div(2)))
	for i := 0; i < nLeap; i++ { // want unrolledloop
		q = q.Add(p.Mul(eps))
		scale := eps
		if i == nLeap-1 {
			scale = eps.Div(2)
		}
		p = p.Sub(gradU(t, q).Mul(scale))
	}
	return metropolis(t, q0, p0, q, p, u)
}

type phase struct{ Q, P jit.Array }

// HMCStepFori is HMCStep with the leapfrog loop as a fori_loop.
func HMCStepFori(t Target, q, p, u, eps jit.Array, nLeap int) (jit.Array, jit.Array) {
	q0, p0 := q, p
	p = p.Sub(gradU(t, q).Mul(eps.Div(2)))
	end := jit.ForiLoop(0, nLeap-1, func(_ jit.Array, s phase) phase {
		nq := s.Q.Add(s.P.Mul(eps))
		return phase{Q: nq, P: s.P.Sub(gradU(t, nq).Mul(eps))}
	}, phase{Q: q, P: p})
	q = end.Q.Add(end.P.Mul(eps))
	p = end.P.Sub(gradU(t, q).Mul(eps.Div(2)))
	return metropolis(t, q0, p0, q, p, u)
}

func normals(rng *rand.Rand, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return jit.FromSlice(v, shape...)
}

func uniforms(rng *rand.Rand, n int) jit.Array {
	v := make([]float32, n)
	for i := range v {
		v[i] = rng.Float32()
	}
	return jit.FromSlice(v)
}

func mean(xs []float32) float64 {
	s := 0.0
	for _, x := range xs {
		s += float64(x)
	}
	return s / float64(len(xs))
}

func main() {
	rng := rand.New(rand.NewSource(3))
	target := Target{Prec: jit.FromSlice([]float32{
		2.0, 0.6, 0.0,
		0.6, 1.0, 0.3,
		0.0, 0.3, 0.5,
	}, dim, dim)}
	q := normals(rng, numChains, dim)

	// MALA warmup: adapt the step size towards the target acceptance.
	mala := jit.Jit(MALAStep, jit.StaticArgnums(4))
	eps := 0.5
	for it := 0; it < warmup; it++ {
		var acc jit.Array
		q, acc = mala.Call(target, q, normals(rng, numChains, dim), uniforms(rng, numChains), eps) // want staticargs
		eps *= math.Exp(0.6 * (mean(acc.Float32s()) - targetMALA))
	}
	eps = math.Round(eps*100) / 100
	fmt.Printf("MALA warmup: step size %.2f after %d compiles\n", eps, mala.Stats().Compiles)

	// MALA sampling at the frozen step size.
	sampler := jit.Jit(MALAStep, jit.StaticArgnums(4))
	accSum := 0.0
	for it := 0; it < numSamples; it++ {
		var acc jit.Array
		q, acc = sampler.Call(target, q, normals(rng, numChains, dim), uniforms(rng, numChains), eps)
		accSum += mean(acc.Float32s())
	}
	fmt.Printf("MALA sampling: mean acceptance %.2f, compiles %d\n", accSum/numSamples, sampler.Stats().Compiles)

	// HMC with a long unrolled trajectory.
	const longLeap = 40
	hmc := jit.Jit(HMCStep, jit.StaticArgnums(5))
	hmcEps := jit.Scalar(float32(0.08))
	hostEvals := 0
	accSum = 0
	for it := 0; it < 20; it++ {
		var acc jit.Array
		q, acc = hmc.Call(target, q, normals(rng, numChains, dim), uniforms(rng, numChains), hmcEps, longLeap)
		accSum += mean(acc.Float32s())
		hostEvals += longLeap + 1
	}
	fmt.Printf("HMC unrolled: acceptance %.2f, %d gradient evaluations per chain\n", accSum/20, hostEvals)

	// HMC with fori_loop leapfrog, alternating short and long trajectories.
	hmcFori := jit.Jit(HMCStepFori, jit.StaticArgnums(5))
	accSum = 0
	for it := 0; it < 40; it++ {
		nLeap := 10
		if it%2 == 1 {
			nLeap = 20
		}
		var acc jit.Array
		q, acc = hmcFori.Call(target, q, normals(rng, numChains, dim), uniforms(rng, numChains), hmcEps, nLeap)
		accSum += mean(acc.Float32s())
	}
	fmt.Printf("HMC fori: acceptance %.2f, compiles %d\n", accSum/40, hmcFori.Stats().Compiles)

	m := q.Mean(0).Float32s()
	fmt.Printf("final chain mean %.2f %.2f %.2f, traced log-density evaluations %d\n", m[0], m[1], m[2], gradEvals)
}
