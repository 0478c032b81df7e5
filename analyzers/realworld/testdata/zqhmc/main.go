// Command zqhmc fits a Bayesian logistic regression to a small synthetic
// loan-default data set three ways: vmapped random-walk Metropolis chains,
// HMC with dual-averaging step-size adaptation during burn-in, and
// mean-field variational inference (reparameterised ELBO gradients).
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	nObs     = 96
	nFeat    = 5
	nChains  = 4
	priorSD  = 2.5
	nMC      = 40 // Monte Carlo draws per ELBO estimate
	leapfrog = 10
)

// Data is the design matrix and the 0/1 labels.
type Data struct {
	X jit.Array // [nObs, nFeat]
	Y jit.Array // [nObs]
}

// Tuning is baked into the compiled HMC kernel.
type Tuning struct {
	StepSize float64 `jit:"static"`
	Steps    int     `jit:"static"`
}

// gradEvals counts potential-gradient evaluations, as Stan reports them.
var gradEvals int

func makeData(rng *rand.Rand) Data {
	trueW := []float64{1.2, -0.8, 0.5, 0, 2.0}
	xs := make([]float32, nObs*nFeat)
	ys := make([]float32, nObs)
	for i := 0; i < nObs; i++ {
		z := 0.0
		for j := 0; j < nFeat; j++ {
			v := rng.NormFloat64()
			xs[i*nFeat+j] = float32(v)
			z += v * trueW[j]
		}
		if rng.Float64() < 1/(1+math.Exp(-z)) {
			ys[i] = 1
		}
	}
	return Data{X: jit.FromSlice(xs, nObs, nFeat), Y: jit.FromSlice(ys)}
}

func logPosterior(theta jit.Array, d Data) jit.Array {
	logits := d.X.MatMul(theta)
	ll := d.Y.Mul(logits).Sub(jit.Softplus(logits)).Sum()
	prior := theta.Mul(theta).Sum().Mul(-0.5 / (priorSD * priorSD))
	return ll.Add(prior)
}

var gradLogPost = jit.Grad[func(jit.Array, Data) jit.Array](logPosterior)

func potentialGrad(q jit.Array, d Data) jit.Array {
	gradEvals++ // want traceeffect
	return gradLogPost(q, d).Neg()
}

// mhStep is one random-walk Metropolis step of one chain.
func mhStep(theta, noise, logU jit.Array, d Data, scale jit.Array) (jit.Array, jit.Array) {
	prop := theta.Add(noise.Mul(scale))
	logRatio := logPosterior(prop, d).Sub(logPosterior(theta, d))
	accept := logU.Lt(logRatio)
	return jit.Where(accept, prop, theta), accept.Astype(jit.Float32)
}

// hmcStep is one HMC transition with a leapfrog trajectory.
func hmcStep(theta, p0, logU jit.Array, d Data, tn Tuning) (jit.Array, jit.Array) {
	eps := tn.StepSize
	q := theta
	p := p0.Sub(potentialGrad(q, d).Mul(eps / 2))
	for l := 0; l < tn.Steps; l++ {
		q = q.Add(p.Mul(eps))
		g := potentialGrad(q, d)
		if l < tn.Steps-1 {
			p = p.Sub(g.Mul(eps))
		} else {
			p = p.Sub(g.Mul(eps / 2))
		}
	}
	h0 := logPosterior(theta, d).Neg().Add(p0.Mul(p0).Sum().Mul(0.5))
	h1 := logPosterior(q, d).Neg().Add(p.Mul(p).Sum().Mul(0.5))
	logAcc := h0.Sub(h1).Min(0)
	return jit.Where(logU.Lt(logAcc), q, theta), logAcc.Exp()
}

// dualAveraging is Hoffman & Gelman's step-size adaptation.
type dualAveraging struct {
	mu, hBar, logEps, logEpsBar float64
	t                           int
}

func newDualAveraging(eps0 float64) *dualAveraging {
	return &dualAveraging{mu: math.Log(10 * eps0), logEps: math.Log(eps0)}
}

func (da *dualAveraging) update(acc float64) {
	const target, gamma, t0, kappa = 0.8, 0.05, 10.0, 0.75
	da.t++
	t := float64(da.t)
	da.hBar = (1-1/(t+t0))*da.hBar + (target-acc)/(t+t0)
	da.logEps = da.mu - math.Sqrt(t)/gamma*da.hBar
	w := math.Pow(t, -kappa)
	da.logEpsBar = w*da.logEps + (1-w)*da.logEpsBar
}

func (da *dualAveraging) eps() float64   { return math.Exp(da.logEps) }
func (da *dualAveraging) final() float64 { return math.Exp(da.logEpsBar) }

func normals(rng *rand.Rand, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(rng.NormFloat64())
	}
	return out
}

func runMetropolis(rng *rand.Rand, d Data) {
	step := jit.Jit(jit.Vmap(mhStep, jit.InAxes(0, 0, 0, jit.NotMapped, jit.NotMapped)))
	theta := jit.Zeros(jit.Float32, nChains, nFeat)
	scale := 0.3
	var draws []float32
	const burn, keep = 40, 60
	for it := 0; it < burn+keep; it++ {
		logU := make([]float32, nChains)
		for c := range logU {
			logU[c] = float32(math.Log(rng.Float64()))
		}
		var acc jit.Array
		theta, acc = step.Call(theta, jit.FromSlice(normals(rng, nChains*nFeat), nChains, nFeat),
			jit.FromSlice(logU), d, jit.Scalar(float32(scale)))
		rate := acc.Mean().Item()
		if it < burn {
			scale *= math.Exp(0.5 * (rate - 0.3)) // Robbins-Monro toward 30% acceptance
			continue
		}
		draws = append(draws, theta.Float32s()...)
	}
	mean := make([]float64, nFeat)
	for i, v := range draws {
		mean[i%nFeat] += float64(v) / float64(len(draws)/nFeat)
	}
	fmt.Printf("RWM: scale=%.3f posterior mean=%.2f compiles=%d\n", scale, mean, step.Stats().Compiles)
}

func runHMC(rng *rand.Rand, d Data) {
	hmc := jit.Jit(hmcStep)
	theta := jit.Zeros(jit.Float32, nFeat)
	da := newDualAveraging(0.05)
	for it := 0; it < 24; it++ {
		var acc jit.Array
		p0, logU := jit.FromSlice(normals(rng, nFeat)), jit.Scalar(float32(math.Log(rng.Float64())))
		theta, acc = hmc.Call(theta, p0, logU, d, Tuning{StepSize: da.eps(), Steps: leapfrog}) // want staticargs
		da.update(acc.Item())
	}
	tuned := Tuning{StepSize: da.final(), Steps: leapfrog}
	sum := make([]float64, nFeat)
	const keep = 50
	for it := 0; it < keep; it++ {
		p0, logU := jit.FromSlice(normals(rng, nFeat)), jit.Scalar(float32(math.Log(rng.Float64())))
		theta, _ = hmc.Call(theta, p0, logU, d, tuned)
		for j, v := range theta.Float32s() {
			sum[j] += float64(v) / keep
		}
	}
	fmt.Printf("HMC: eps=%.4f mean=%.2f compiles=%d gradEvals(traced)=%d\n", tuned.StepSize, sum, hmc.Stats().Compiles, gradEvals)
}

// VParams is a mean-field Gaussian approximation.
type VParams struct {
	Mu, LogSigma jit.Array
}

func negELBO(vp VParams, eps jit.Array, d Data) jit.Array {
	sigma := vp.LogSigma.Exp()
	total := jit.Scalar(float32(0))
	for s := 0; s < nMC; s++ { // want unrolledloop
		z := eps.Slice([]int{s, 0}, []int{s + 1, nFeat}).Reshape(nFeat)
		total = total.Add(logPosterior(vp.Mu.Add(sigma.Mul(z)), d))
	}
	return total.Div(nMC).Add(vp.LogSigma.Sum()).Neg()
}

func runVI(rng *rand.Rand, d Data) {
	vg := jit.Jit(jit.ValueAndGrad[func(VParams, jit.Array, Data) (jit.Array, VParams)](negELBO))
	vp := VParams{Mu: jit.Zeros(jit.Float32, nFeat), LogSigma: jit.Full(-1, jit.Float32, nFeat)}
	var history []float64
	lr := 0.02
	for it := 0; it < 60; it++ {
		loss, g := vg.Call(vp, jit.FromSlice(normals(rng, nMC*nFeat), nMC, nFeat), d)
		vp = VParams{Mu: vp.Mu.Sub(g.Mu.Mul(lr)), LogSigma: vp.LogSigma.Sub(g.LogSigma.Mul(lr))}
		history = append(history, loss.Item())
		if it == 30 {
			lr /= 2
		}
	}
	fmt.Printf("VI: -ELBO %.2f -> %.2f mu=%v compiles=%d\n", history[0], history[len(history)-1], vp.Mu, vg.Stats().Compiles)
}

func main() {
	rng := rand.New(rand.NewSource(7))
	d := makeData(rng)
	runMetropolis(rng, d)
	runHMC(rng, d)
	runVI(rng, d)
}
