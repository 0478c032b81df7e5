// Command mcmcchains runs random-walk Metropolis chains on a banana-shaped
// density, one vmapped step for all chains, and tracks acceptance rates,
// R-hat and effective sample size while it runs.
package main

import (
	"fmt"
	"log"
	"math/rand"

	"corpus/mcmcchains/diag"

	"github.com/jitlint/jitlint/jit"
)

const (
	dim       = 2
	numChains = 4
	numSteps  = 120
	window    = 64
	blockLen  = 50
	proposal  = 0.9
)

// logBanana is the log density of a twisted Gaussian at x [dim].
func logBanana(x jit.Array) jit.Array {
	a := x.Slice([]int{0}, []int{1})
	b := x.Slice([]int{1}, []int{2})
	return a.Pow(2).Div(-8).Sub(b.Sub(a.Pow(2).Mul(0.25)).Pow(2).Div(2)).Sum()
}

// chainStep is one Metropolis step of one chain: x [dim], noise [dim], u [].
func chainStep(x, noise, u jit.Array) (jit.Array, jit.Array) {
	prop := x.Add(noise.Mul(proposal))
	logA := logBanana(prop).Sub(logBanana(x))
	take := u.Log().Lt(logA)
	return jit.Where(take, prop, x), take.Astype(jit.Float32)
}

var allChains = jit.Vmap(chainStep)

// Step advances every chain by one step: xs [chains, dim].
func Step(xs, noise, u jit.Array) (jit.Array, jit.Array) { return allChains(xs, noise, u) }

// Block runs blockLen steps for every chain in one program: noise
// [blockLen, chains, dim], u [blockLen, chains]. It returns the final
// positions and the acceptance count per chain.
func Block(xs, noise, u jit.Array) (jit.Array, jit.Array) {
	accepted := jit.Zeros(jit.Float32, numChains)
	for t := 0; t < blockLen; t++ { // want unrolledloop
		nt := noise.Slice([]int{t, 0, 0}, []int{t + 1, numChains, dim}).Reshape(numChains, dim)
		ut := u.Slice([]int{t, 0}, []int{t + 1, numChains}).Reshape(numChains)
		var acc jit.Array
		xs, acc = allChains(xs, nt, ut)
		accepted = accepted.Add(acc)
	}
	return xs, accepted
}

type draw struct{ Noise, U jit.Array }

// BlockScan is Block with the loop over steps as a scan; it also returns
// the draws [blockLen, chains, dim].
func BlockScan(xs, noise, u jit.Array) (jit.Array, jit.Array, jit.Array) {
	type carry struct{ X, Acc jit.Array }
	end, path := jit.Scan(func(c carry, d draw) (carry, jit.Array) {
		x, acc := allChains(c.X, d.Noise, d.U)
		return carry{X: x, Acc: c.Acc.Add(acc)}, x
	}, carry{X: xs, Acc: jit.Zeros(jit.Float32, numChains)}, draw{Noise: noise, U: u})
	return end.X, end.Acc, path
}

// RHat is the R-hat of the first coordinate's draws [chains, n].
func RHat(draws jit.Array) jit.Array {
	log.Printf("diag: R-hat over %v draws", draws.Shape()) // want traceeffect
	return diag.RHat(draws)
}

func gaussian(rng *rand.Rand, scale float64, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(scale * rng.NormFloat64())
	}
	return jit.FromSlice(v, shape...)
}

func uniform(rng *rand.Rand, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = rng.Float32()
	}
	return jit.FromSlice(v, shape...)
}

// traceOf returns the first coordinate of every stored draw as [chains, n].
func traceOf(hist [][]float32, from int) jit.Array {
	n := len(hist) - from
	out := make([]float32, numChains*n)
	for t := from; t < len(hist); t++ {
		for c := 0; c < numChains; c++ {
			out[c*n+(t-from)] = hist[t][c*dim]
		}
	}
	return jit.FromSlice(out, numChains, n)
}

func main() {
	rng := rand.New(rand.NewSource(11))
	step := jit.Jit(Step)
	rhat := jit.Jit(RHat)
	ess := jit.Jit(diag.ESS)

	xs := gaussian(rng, 2, numChains, dim)
	var hist [][]float32
	accepted := make([]float64, numChains)
	var lastRHat, windowRHat float64
	for t := 0; t < numSteps; t++ {
		var acc jit.Array
		xs, acc = step.Call(xs, gaussian(rng, 1, numChains, dim), uniform(rng, numChains))
		for c, a := range acc.Float32s() {
			accepted[c] += float64(a)
		}
		hist = append(hist, xs.Float32s())
		if t >= 10 && t%10 == 0 {
			lastRHat = rhat.Call(traceOf(hist, 0)).Item() // want shapechurn
		}
		if t >= window && t%5 == 0 {
			windowRHat = rhat.Call(traceOf(hist, len(hist)-window)).Item()
		}
	}
	for c := range accepted {
		accepted[c] /= numSteps
	}
	status := "not converged"
	if lastRHat < 1.1 {
		status = "converged"
	}
	fmt.Printf("acceptance per chain %.2f; R-hat all draws %.3f (%s), last %d draws %.3f\n",
		accepted, lastRHat, status, window, windowRHat)
	fmt.Printf("ESS of the last %d draws: %.1f; R-hat compiles %d\n",
		window, ess.Call(traceOf(hist, len(hist)-window)).Item(), rhat.Stats().Compiles)

	// Whole blocks of steps per call.
	block := jit.Jit(Block)
	total := jit.Zeros(jit.Float32, numChains)
	for b := 0; b < 3; b++ {
		var acc jit.Array
		xs, acc = block.Call(xs, gaussian(rng, 1, blockLen, numChains, dim), uniform(rng, blockLen, numChains))
		total = total.Add(acc)
	}
	fmt.Printf("unrolled blocks: acceptance %.2f\n", total.Div(3*blockLen).Float32s())

	// Independent restarts from overdispersed starting points.
	for seed := 0; seed < 4; seed++ {
		run := jit.Jit(BlockScan)
		x0 := gaussian(rng, 4, numChains, dim)
		_, acc, path := run.Call(x0, gaussian(rng, 1, blockLen, numChains, dim), uniform(rng, blockLen, numChains))
		draws := path.Slice([]int{0, 0, 0}, []int{blockLen, numChains, 1}).Reshape(blockLen, numChains).Transpose()
		fmt.Printf("restart %d: acceptance %.2f, R-hat %.3f, compiles %d\n", seed, acc.Sum().Item()/(numChains*blockLen),
			rhat.Call(draws).Item(), run.Stats().Compiles)
	}

	// Tempered chains: one jitted block per temperature.
	for _, temp := range []float64{1, 2, 4, 8} {
		tempered := jit.Jit(func(xs, noise, u jit.Array) (jit.Array, jit.Array, jit.Array) { // want staticargs
			return BlockScan(xs, noise.Mul(temp), u)
		})
		_, acc, _ := tempered.Call(xs, gaussian(rng, 1, blockLen, numChains, dim), uniform(rng, blockLen, numChains))
		fmt.Printf("temperature %g: acceptance %.2f\n", temp, acc.Sum().Item()/(numChains*blockLen))
	}
}
