// geneticsearch minimises the 8-dimensional Rastrigin function with a
// genetic algorithm whose population shrinks over the generations (a cheap
// way to focus the search). Fitness and breeding are jitted; selection runs on
// the host. The run is done twice: once evaluating the population at its
// current size, once padded to the initial size with a mask.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

const (
	dim         = 8
	maxPop      = 64
	elites      = 4
	generations = 10
	shrinkBy    = 4
	baseSigma   = 0.15
)

// Fitness is the Rastrigin function of every row of pop ([P, dim] -> [P]).
func Fitness(pop jit.Array) jit.Array {
	p := pop.Shape()[0]
	total := jit.Full(10*dim, jit.Float32, p)
	for j := 0; j < dim; j++ {
		col := pop.Slice([]int{0, j}, []int{p, j + 1}).Reshape(p)
		total = total.Add(col.Mul(col)).Sub(col.Mul(2 * math.Pi).Cos().Mul(10))
	}
	return total
}

// MaskedFitness scores padded rows as hopeless so selection never keeps them.
func MaskedFitness(pop, mask jit.Array) jit.Array {
	return jit.Where(mask.Gt(0), Fitness(pop), 1e9)
}

// SelectBest was meant to keep the best row inside the compiled program.
func SelectBest(pop, fit jit.Array) jit.Array {
	order := ranked(fit.Float32s(), fit.Shape()[0]) // want tracedbool
	return pop.Slice([]int{order[0], 0}, []int{order[0] + 1, dim})
}

// mutationRNG jitters the mutation strength (self-adaptive mutation).
var mutationRNG = rand.New(rand.NewSource(1))

// Breed is blend crossover plus Gaussian mutation; the crossover weights and
// the noise come from the host so each call gets fresh ones.
func Breed(pa, pb, alpha, noise jit.Array) jit.Array {
	sigma := baseSigma * (1 + 0.2*mutationRNG.NormFloat64()) // want traceeffect
	child := pa.Mul(alpha).Add(pb.Mul(alpha.Neg().Add(1)))
	return child.Add(noise.Mul(sigma))
}

// ranked returns the row indices of fit in increasing order.
func ranked(fit []float32, n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return fit[idx[a]] < fit[idx[b]] })
	return idx
}

func tournament(rng *rand.Rand, order []int) int {
	a, b := rng.Intn(len(order)), rng.Intn(len(order))
	return order[min(a, b)] // order is sorted, so the smaller rank wins
}

func initial(rng *rand.Rand) []float32 {
	pop := make([]float32, maxPop*dim)
	for i := range pop {
		pop[i] = float32(rng.Float64()*10.24 - 5.12)
	}
	return pop
}

// run evolves the population; score evaluates n rows of pop.
func run(name string, seed int64, breed func(pa, pb, alpha, noise jit.Array) jit.Array,
	score func(pop []float32, n int) []float32) float32 {
	rng := rand.New(rand.NewSource(seed))
	pop, n := initial(rng), maxPop
	var best float32
	for g := 0; g < generations; g++ {
		fit := score(pop, n)
		order := ranked(fit, n)
		best = fit[order[0]]
		if g%3 == 0 {
			fmt.Printf("  %s gen %2d pop %2d best %.4f\n", name, g, n, best)
		}
		pa := make([]float32, maxPop*dim)
		pb := make([]float32, maxPop*dim)
		alpha := make([]float32, maxPop)
		noise := make([]float32, maxPop*dim)
		for c := 0; c < maxPop; c++ {
			i, j := tournament(rng, order), tournament(rng, order)
			copy(pa[c*dim:(c+1)*dim], pop[i*dim:(i+1)*dim])
			copy(pb[c*dim:(c+1)*dim], pop[j*dim:(j+1)*dim])
			alpha[c] = float32(rng.Float64())
		}
		for k := range noise {
			noise[k] = float32(rng.NormFloat64())
		}
		kids := breed(jit.FromSlice(pa, maxPop, dim), jit.FromSlice(pb, maxPop, dim),
			jit.FromSlice(alpha, maxPop, 1), jit.FromSlice(noise, maxPop, dim)).Float32s()

		next := n - shrinkBy
		newPop := make([]float32, maxPop*dim)
		for e := 0; e < elites; e++ {
			copy(newPop[e*dim:(e+1)*dim], pop[order[e]*dim:(order[e]+1)*dim])
		}
		copy(newPop[elites*dim:next*dim], kids[:(next-elites)*dim])
		pop, n = newPop, next
	}
	return best
}

func main() {
	fitness := jit.Jit(Fitness)
	masked := jit.Jit(MaskedFitness)
	breed := jit.Jit(Breed)

	// Keeping the best row on the device was the first plan.
	var jerr *jit.Error
	func() {
		defer func() {
			if r := recover(); r != nil {
				if e, ok := r.(*jit.Error); ok {
					jerr = e
					return
				}
				panic(r)
			}
		}()
		p := jit.Zeros(jit.Float32, maxPop, dim)
		jit.Jit(SelectBest).Call(p, fitness.Call(p))
	}()
	if jerr != nil {
		fmt.Printf("device-side selection failed (%v); selecting on the host\n", jerr.Kind)
	}

	exact := run("exact ", 11, breed.Call, func(pop []float32, n int) []float32 {
		return fitness.Call(jit.FromSlice(pop[:n*dim], n, dim)).Float32s() // want shapechurn
	})

	padded := run("padded", 11, breed.Call, func(pop []float32, n int) []float32 {
		mask := make([]float32, maxPop)
		for i := 0; i < n; i++ {
			mask[i] = 1
		}
		return masked.Call(jit.FromSlice(pop, maxPop, dim), jit.FromSlice(mask)).Float32s()[:n]
	})

	fmt.Printf("best: exact %.4f padded %.4f\n", exact, padded)
	fmt.Printf("compiles: fitness %d, masked %d, breed %d\n",
		fitness.Stats().Compiles, masked.Stats().Compiles, breed.Stats().Compiles)
}
