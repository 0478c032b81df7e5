// hmcsampler draws from the posterior of a small Bayesian logistic
// regression with Hamiltonian Monte Carlo (single chain, host-side
// accept/reject) and with unadjusted Langevin dynamics over a batch of
// chains (Vmap of Grad).
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	nData   = 64
	dim     = 3
	nChains = 16
)

var (
	features jit.Array // [nData, dim]
	labels   jit.Array // [nData]
	priorVar = jit.Scalar[float32](4)
)

func init() {
	rng := rand.New(rand.NewSource(11))
	truth := []float64{1.5, -2, 0.5}
	xs := make([]float32, 0, nData*dim)
	ys := make([]float32, nData)
	for i := 0; i < nData; i++ {
		z := 0.0
		for j := 0; j < dim; j++ {
			v := rng.NormFloat64()
			xs = append(xs, float32(v))
			z += truth[j] * v
		}
		if rng.Float64() < 1/(1+math.Exp(-z)) {
			ys[i] = 1
		}
	}
	features, labels = jit.FromSlice(xs, nData, dim), jit.FromSlice(ys)
}

// Sampler keeps the jitted pieces of the chain and its counters.
type Sampler struct {
	gradEvals int
	grad      *jit.Func[func(jit.Array) jit.Array]
	potential *jit.Func[func(jit.Array) jit.Array]
	traj      *jit.Func[func(jit.Array, jit.Array, jit.Array) Phase]
	trajFixed *jit.Func[func(float64, jit.Array, jit.Array) Phase]
}

// Phase is a point in phase space.
type Phase struct{ Q, P jit.Array }

// LogDensity is the unnormalised log posterior of the weights w.
func LogDensity(w jit.Array) jit.Array {
	s2 := priorVar.Item() // concrete: a package constant, not a tracer
	z := features.MatMul(w)
	return labels.Mul(z).Sub(jit.Softplus(z)).Sum().Sub(w.Mul(w).Sum().Div(2 * s2))
}

// Potential is the negative log density.
func Potential(w jit.Array) jit.Array { return LogDensity(w).Neg() }

func (s *Sampler) logp(w jit.Array) jit.Array {
	s.gradEvals++ // want traceeffect
	return LogDensity(w)
}

func newSampler() *Sampler {
	s := &Sampler{}
	g := jit.Grad[func(jit.Array) jit.Array](s.logp)
	s.grad = jit.Jit(g)
	s.potential = jit.Jit(Potential)
	leap := func(eps jit.Array, steps int, q, p jit.Array) Phase {
		out, _ := jit.ScanN(func(ph Phase) (Phase, struct{}) {
			p := ph.P.Add(g(ph.Q).Mul(eps).Mul(0.5))
			q := ph.Q.Add(p.Mul(eps))
			return Phase{q, p.Add(g(q).Mul(eps).Mul(0.5))}, struct{}{}
		}, Phase{q, p}, steps)
		return out
	}
	s.traj = jit.Jit(func(eps, q, p jit.Array) Phase { return leap(eps, 20, q, p) })
	s.trajFixed = jit.Jit(func(eps float64, q, p jit.Array) Phase {
		return leap(jit.Full(eps, jit.Float32), 20, q, p)
	}, jit.StaticArgnums(0))
	return s
}

// LongLeapfrog integrates 40 leapfrog steps with a Go loop.
func LongLeapfrog(eps, q, p jit.Array) Phase {
	g := jit.Grad[func(jit.Array) jit.Array](LogDensity)
	for l := 0; l < 40; l++ { // want unrolledloop
		p = p.Add(g(q).Mul(eps).Mul(0.5))
		q = q.Add(p.Mul(eps))
		p = p.Add(g(q).Mul(eps).Mul(0.5))
	}
	return Phase{q, p}
}

// MetropolisInTrace accepts inside the traced step with a host comparison.
func MetropolisInTrace(logU, q, p jit.Array) jit.Array {
	end := LongLeapfrogShort(q, p)
	h0 := LogDensity(q).Neg().Add(p.Mul(p).Sum().Mul(0.5))
	h1 := LogDensity(end.Q).Neg().Add(end.P.Mul(end.P).Sum().Mul(0.5))
	if h0.Sub(h1).Item() > logU.Item() { // want tracedbool
		return end.Q
	}
	return q
}

// LongLeapfrogShort is a short trajectory: 8 steps, unrolled on purpose.
func LongLeapfrogShort(q, p jit.Array) Phase {
	g := jit.Grad[func(jit.Array) jit.Array](LogDensity)
	for l := 0; l < 8; l++ {
		p = p.Add(g(q).Mul(0.05))
		q = q.Add(p.Mul(0.1))
		p = p.Add(g(q).Mul(0.05))
	}
	return Phase{q, p}
}

func (s *Sampler) hamiltonian(ph Phase) float64 {
	kin := 0.0
	for _, v := range ph.P.Float32s() {
		kin += 0.5 * float64(v) * float64(v)
	}
	return s.potential.Call(ph.Q).Item() + kin
}

func normals(rng *rand.Rand, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(rng.NormFloat64())
	}
	return jit.FromSlice(xs, shape...)
}

func main() {
	rng := rand.New(rand.NewSource(5))
	s := newSampler()
	q := jit.Zeros(jit.Float32, dim)

	// Warm-up: adapt eps towards 65% acceptance, eps passed as a static value.
	eps := 0.1
	for it := 0; it < 6; it++ {
		p := normals(rng, dim)
		end := s.trajFixed.Call(eps, q, p) // want staticargs
		if math.Log(rng.Float64()) < s.hamiltonian(Phase{q, p})-s.hamiltonian(end) {
			q, eps = end.Q, eps*1.2
		} else {
			eps *= 0.7
		}
	}
	fmt.Printf("warm-up eps %.4f compiles %d\n", eps, s.trajFixed.Stats().Compiles)

	// Sampling with eps as a traced scalar: one program.
	accepted, mean := 0, make([]float64, dim)
	epsA := jit.Scalar(float32(eps))
	for it := 0; it < 60; it++ {
		p := normals(rng, dim)
		end := s.traj.Call(epsA, q, p)
		if math.Log(rng.Float64()) < s.hamiltonian(Phase{q, p})-s.hamiltonian(end) {
			q, accepted = end.Q, accepted+1
		}
		for j, v := range q.Float32s() {
			mean[j] += float64(v) / 60
		}
	}
	fmt.Printf("HMC accepted %d/60, posterior mean %.2f %.2f %.2f\n", accepted, mean[0], mean[1], mean[2])
	fmt.Printf("log-density traced %d times\n", s.gradEvals)

	// Gradient at a few probe points: a fresh jitted Grad each time.
	for i := 0; i < 3; i++ {
		w := jit.Full(float64(i)*0.5, jit.Float32, dim)
		gradAt := jit.Jit(func(w jit.Array) jit.Array { // want staticargs
			return jit.Grad[func(jit.Array) jit.Array](LogDensity)(w)
		})
		gw := gradAt.Call(w)
		u := jit.Jit(Potential).Call(w).Item()
		fmt.Printf("probe %d: potential %.2f |grad| %.2f\n", i, u, norm(gw.Float32s()))
	}

	// A long trajectory with a Go loop of 40 leapfrog steps.
	long := jit.Jit(LongLeapfrog)
	end := long.Call(jit.Scalar[float32](0.02), q, normals(rng, dim))
	fmt.Printf("long trajectory H change %.3f\n", s.hamiltonian(end)-s.hamiltonian(Phase{q, jit.Zeros(jit.Float32, dim)}))

	// Metropolis inside the trace: the accept test needs a concrete value.
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("in-trace accept:", r.(*jit.Error).Kind)
			}
		}()
		jit.Jit(MetropolisInTrace).Call(jit.Scalar(float32(math.Log(rng.Float64()))), q, normals(rng, dim))
	}()

	// Unadjusted Langevin over a batch of chains: Vmap of Grad, jitted once.
	chainGrad := jit.Vmap(jit.Grad[func(jit.Array) jit.Array](LogDensity))
	ula := jit.Jit(func(h, qs, noise jit.Array) jit.Array {
		return qs.Add(chainGrad(qs).Mul(h)).Add(noise.Mul(h.Mul(2).Sqrt()))
	})
	qs := jit.Zeros(jit.Float32, nChains, dim)
	h := jit.Scalar[float32](0.01)
	for it := 0; it < 80; it++ {
		qs = ula.Call(h, qs, normals(rng, nChains, dim))
	}
	m := qs.Mean(0).Float32s()
	fmt.Printf("ULA chain mean %.2f %.2f %.2f, compiles %d\n", m[0], m[1], m[2], ula.Stats().Compiles)
}

func norm(v []float32) float64 {
	s := 0.0
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}
