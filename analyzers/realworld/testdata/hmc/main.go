// Command hmc samples the posterior of a Bayesian logistic regression with
// Hamiltonian Monte Carlo, ported from a NumPy/JAX tutorial:
//
//   - the MAP estimate by gradient ascent in a lax.while_loop with a
//     tolerance on the gradient norm, used to start the chains;
//   - HMC transitions for several chains at once (vmap over chains) with a
//     leapfrog integrator in lax.fori_loop and the gradient from jax.grad;
//   - step-size adaptation during warm-up by dual averaging on the host
//     (target acceptance 0.8), then sampling with the adapted step size;
//   - split-R̂ convergence monitoring while sampling.
//
// Momenta and the Metropolis uniforms come from a seeded host generator.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"os"

	"corpus/numkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	nObs       = 200
	dim        = 5 // intercept + 4 features
	nChains    = 4
	nWarmup    = 150
	nSamples   = 200
	priorScale = 2.5
	targetAcc  = 0.8
)

// Data is the design matrix (with a column of ones) and the 0/1 labels.
type Data struct {
	X, Y jit.Array
}

// logPosterior is the log-likelihood of the logistic model plus an
// isotropic Gaussian prior on the coefficients.
func logPosterior(beta jit.Array, d Data) jit.Array {
	z := d.X.MatMul(beta)
	loglik := d.Y.Mul(z).Sub(jit.Softplus(z)).Sum()
	return loglik.Sub(numkit.Dot(beta, beta).Div(2 * priorScale * priorScale))
}

var gradLogPosterior = jit.Grad[func(beta jit.Array, d Data) jit.Array](logPosterior)

type mapState struct {
	Beta, G, K jit.Array
}

// FindMAP climbs the log posterior with a fixed learning rate until the
// gradient norm falls below tol (or maxIter iterations).
func FindMAP(maxIter int, beta0, lr, tol jit.Array, d Data) (jit.Array, jit.Array) {
	init := mapState{Beta: beta0, G: gradLogPosterior(beta0, d), K: jit.Scalar(int32(0))}
	s := jit.WhileLoop(func(s mapState) jit.Array {
		return numkit.Norm(s.G).Gt(tol).And(s.K.Lt(maxIter))
	}, func(s mapState) mapState {
		b := s.Beta.Add(s.G.Mul(lr))
		return mapState{Beta: b, G: gradLogPosterior(b, d), K: s.K.Add(1)}
	}, init)
	return s.Beta, s.K
}

type phase struct {
	Q, P jit.Array
}

// hmcStep is one HMC transition for one chain: nLeap leapfrog steps of size
// eps from (q, p0), then a Metropolis test against log(u).
func hmcStep(nLeap int, q, eps, p0, logU jit.Array, d Data) (jit.Array, jit.Array) {
	p := p0.Add(gradLogPosterior(q, d).Mul(eps.Mul(0.5)))
	end := jit.ForiLoop(0, nLeap, func(i jit.Array, s phase) phase {
		qn := s.Q.Add(s.P.Mul(eps))
		// Full momentum step except after the last position update.
		scale := jit.Where(i.Lt(nLeap-1), eps, eps.Mul(0.5))
		return phase{Q: qn, P: s.P.Add(gradLogPosterior(qn, d).Mul(scale))}
	}, phase{Q: q, P: p})
	h0 := logPosterior(q, d).Sub(numkit.Dot(p0, p0).Mul(0.5))
	h1 := logPosterior(end.Q, d).Sub(numkit.Dot(end.P, end.P).Mul(0.5))
	logAcc := h1.Sub(h0).Min(0)
	logAcc = jit.Where(logAcc.Ne(logAcc), -math.Inf(1), logAcc) // NaN energy: reject
	accept := logU.Lt(logAcc)
	return jit.Where(accept, end.Q, q), logAcc.Exp()
}

// sampler bundles the jitted transition with the host generator it uses
// and the cost counters reported at the end (as Stan's n_leapfrog).
type sampler struct {
	rng       *rand.Rand
	data      Data
	gradEvals int
	step      *jit.Func[func(int, jit.Array, jit.Array, jit.Array, jit.Array, Data) (jit.Array, jit.Array)]
}

func newSampler(rng *rand.Rand, data Data) *sampler {
	s := &sampler{rng: rng, data: data}
	// Transition advances every chain by one HMC step (vmap over chains).
	transition := func(nLeap int, qs, eps, ps, logUs jit.Array, d Data) (jit.Array, jit.Array) {
		s.gradEvals += nChains * (nLeap + 1) // want traceeffect
		one := func(q, eps, p0, logU jit.Array, d Data) (jit.Array, jit.Array) {
			return hmcStep(nLeap, q, eps, p0, logU, d)
		}
		return jit.Vmap(one, jit.InAxes(0, jit.NotMapped, 0, 0, jit.NotMapped))(qs, eps, ps, logUs, d)
	}
	s.step = jit.Jit(transition, jit.StaticArgnums(0))
	return s
}

// advance draws momenta and uniforms on the host and runs one transition.
// The step size is jittered by ±10% per transition to avoid resonant
// trajectories (Neal 2011, §5.4.2.2).
func (s *sampler) advance(nLeap int, qs jit.Array, eps float64) (jit.Array, float64) {
	eps *= 0.9 + 0.2*s.rng.Float64()
	ps := jit.FromSlice(numkit.Normals(s.rng, nChains*dim), nChains, dim)
	us := numkit.Uniforms(s.rng, nChains)
	for i := range us {
		us[i] = float32(math.Log(float64(us[i]) + 1e-30))
	}
	q, acc := s.step.Call(nLeap, qs, jit.Scalar(float32(eps)), ps, jit.FromSlice(us), s.data)
	return q, acc.Mean().Item()
}

// SplitRhat is the split-R̂ of every coefficient for draws [chains, n, dim]
// (Gelman et al. 2013): each chain is cut in two halves.
func SplitRhat(draws jit.Array) jit.Array {
	sh := draws.Shape()
	c, n, d := sh[0], sh[1]/2, sh[2]
	first := draws.Slice([]int{0, 0, 0}, []int{c, n, d})
	second := draws.Slice([]int{0, n, 0}, []int{c, 2 * n, d})
	halves := jit.Concatenate(0, first, second) // [2c, n, d]
	means := halves.Mean(1)                     // [2c, d]
	centred := halves.Sub(means.Reshape(2*c, 1, d))
	w := centred.Mul(centred).Sum(1).Div(float64(n - 1)).Mean(0)
	grand := means.Mean(0)
	dm := means.Sub(grand.Reshape(1, d))
	b := dm.Mul(dm).Sum(0).Mul(float64(n) / float64(2*c-1))
	varPlus := w.Mul(float64(n-1) / float64(n)).Add(b.Div(float64(n)))
	return varPlus.Div(w).Sqrt()
}

func syntheticData(rng *rand.Rand) (Data, []float32) {
	trueBeta := []float32{-0.5, 1.2, -0.8, 0.4, 0}
	x := make([]float32, 0, nObs*dim)
	y := make([]float32, nObs)
	for i := 0; i < nObs; i++ {
		row := append([]float32{1}, numkit.Normals(rng, dim-1)...)
		z := 0.0
		for j, v := range row {
			z += float64(v * trueBeta[j])
		}
		if rng.Float64() < 1/(1+math.Exp(-z)) {
			y[i] = 1
		}
		x = append(x, row...)
	}
	return Data{X: jit.FromSlice(x, nObs, dim), Y: jit.FromSlice(y)}, trueBeta
}

func main() {
	rng := rand.New(rand.NewSource(7))
	data, trueBeta := syntheticData(rng)

	findMAP := jit.Jit(FindMAP, jit.StaticArgnums(0))
	mapBeta, iters := findMAP.Call(5000, jit.Zeros(jit.Float32, dim), jit.Scalar(float32(0.01)),
		jit.Scalar(float32(1e-3)), data)
	fmt.Printf("MAP after %d iterations: %.3f (true %v)\n", iters.Int(), mapBeta.Float32s(), trueBeta)

	// Chains start around the MAP estimate.
	start := make([]float32, 0, nChains*dim)
	for c := 0; c < nChains; c++ {
		for j, v := range mapBeta.Float32s() {
			start = append(start, v+0.5*float32(rng.NormFloat64())*float32(j%2+1))
		}
	}
	qs := jit.FromSlice(start, nChains, dim)
	s := newSampler(rng, data)
	log := numkit.NewRunLog(os.Stdout, 50)

	// Warm-up: dual averaging of log(eps) towards the target acceptance.
	eps, logEpsBar, hBar := 0.1, 0.0, 0.0
	mu := math.Log(10 * eps)
	const gamma, t0, kappa = 0.05, 10.0, 0.75
	nLeap := 10
	for it := 1; it <= nWarmup; it++ {
		var acc float64
		qs, acc = s.advance(nLeap, qs, eps)
		w := 1 / (float64(it) + t0)
		hBar = (1-w)*hBar + w*(targetAcc-acc)
		logEps := mu - math.Sqrt(float64(it))/gamma*hBar
		eta := math.Pow(float64(it), -kappa)
		logEpsBar = eta*logEps + (1-eta)*logEpsBar
		eps = math.Exp(logEps)
		log.Step(it, "warm-up: acceptance %.2f, eps %.4f", acc, eps)
	}
	eps = math.Exp(logEpsBar)
	fmt.Printf("adapted step size %.4f\n", eps)

	// Sampling with longer trajectories, monitoring split-R̂ as we go.
	nLeap = 20
	draws := make([]float32, 0, nSamples*nChains*dim)
	rhat := jit.Jit(SplitRhat)
	accSum := 0.0
	for it := 1; it <= nSamples; it++ {
		var acc float64
		qs, acc = s.advance(nLeap, qs, eps)
		accSum += acc
		draws = append(draws, qs.Float32s()...)
		if it%25 == 0 {
			// draws is [it, chains, dim]; SplitRhat takes [chains, it, dim].
			hist := jit.FromSlice(draws, it, nChains, dim).Transpose(1, 0, 2)
			r := rhat.Call(hist).Float32s() // want shapechurn
			worst := 0.0
			for _, v := range r {
				worst = math.Max(worst, float64(v))
			}
			fmt.Printf("  sample %3d: mean acceptance %.2f, worst split-R̂ %.3f\n", it, accSum/float64(it), worst)
		}
	}

	// Posterior summary.
	all := jit.FromSlice(draws, nSamples*nChains, dim)
	mean := all.Mean(0).Float32s()
	c := all.Sub(all.Mean(0).Reshape(1, dim))
	sd := c.Mul(c).Mean(0).Sqrt().Float32s()
	for j := 0; j < dim; j++ {
		fmt.Printf("  beta[%d]: posterior %.3f ± %.3f  (true %.2f)\n", j, mean[j], sd[j], trueBeta[j])
	}
	st := s.step.Stats()
	fmt.Printf("transition compiles=%d hits=%d; gradient evaluations %d; SplitRhat compiles=%d\n",
		st.Compiles, st.Hits, s.gradEvals, rhat.Stats().Compiles)
}
