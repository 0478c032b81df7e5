// Command heatsim runs an ensemble of 1-D periodic heat-diffusion problems.
// Random initial temperature profiles are fanned out to a pool of worker
// goroutines; each worker advances its profile with a jitted explicit-Euler
// solver, applies a small stochastic heat kick and a smoothing pass, and the
// results are fanned back in. A vmapped energy diagnostic summarises the
// ensemble, and a last adaptive run halves the time step until it converges.
package main

import (
	"fmt"
	"math/rand"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

const (
	gridN    = 32
	members  = 8
	steps    = 200
	sweeps   = 48
	alpha    = 0.2
	tol      = 1e-3
	maxHeat  = 1.0
	nWorkers = 3
)

var rng = rand.New(rand.NewSource(7))

func laplacian(u jit.Array) jit.Array {
	left := jit.Concatenate(0, u.Slice([]int{gridN - 1}, []int{gridN}), u.Slice([]int{0}, []int{gridN - 1}))
	right := jit.Concatenate(0, u.Slice([]int{1}, []int{gridN}), u.Slice([]int{0}, []int{1}))
	return left.Add(right).Sub(u.Mul(2))
}

func euler(u jit.Array, dt float64) jit.Array {
	return u.Add(laplacian(u).Mul(dt))
}

func solve(u jit.Array) jit.Array {
	u = jit.ForiLoop(0, steps, func(i jit.Array, v jit.Array) jit.Array {
		return euler(v, alpha)
	}, u)
	for k := 0; k < 3; k++ {
		u = u.Mul(0.999)
	}
	return jit.Cond(u.MaxReduce().Gt(maxHeat), func(v jit.Array) jit.Array {
		return v.Div(v.MaxReduce()).Mul(maxHeat)
	}, func(v jit.Array) jit.Array { return v }, u)
}

func kick(u jit.Array) jit.Array {
	amp := rng.NormFloat64() * 0.01 // want traceeffect
	return u.Add(jit.Arange(gridN, jit.Float32).Mul(0.3).Sin().Mul(amp))
}

func smooth(u jit.Array) jit.Array {
	for it := 0; it < sweeps; it++ { // want unrolledloop
		u = u.Mul(0.5).Add(euler(u, 0.25).Mul(0.5))
	}
	return u
}

func energy(u jit.Array) jit.Array {
	return u.Mul(u).Sum().Mul(0.5)
}

func adaptive(u jit.Array) jit.Array {
	coarse := euler(u, alpha)
	for dt := alpha / 2; ; dt /= 2 {
		fine := euler(euler(u, dt), dt)
		if fine.Sub(coarse).Abs().MaxReduce().Lt(tol).Bool() { // want tracedbool
			return fine
		}
		coarse = fine
	}
}

type result struct {
	idx int
	u   jit.Array
}

func main() {
	inits := make([]jit.Array, members)
	for m := range inits {
		prof := make([]float32, gridN)
		for i := range prof {
			prof[i] = float32(rng.Float64())
		}
		inits[m] = jit.FromSlice(prof)
	}

	solver := jit.Jit(solve)
	kicker := jit.Jit(kick)
	smoother := jit.Jit(smooth)

	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < nWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range jobs {
				u := smoother.Call(kicker.Call(solver.Call(inits[m])))
				results <- result{idx: m, u: u}
			}
		}()
	}
	go func() {
		for m := range inits {
			jobs <- m
		}
		close(jobs)
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	final := make([]jit.Array, members)
	for r := range results {
		final[r.idx] = r.u.Reshape(1, gridN)
	}
	ensemble := jit.Concatenate(0, final...)
	energies := jit.Jit(jit.Vmap(energy)).Call(ensemble)
	fmt.Println("energies:", energies)
	fmt.Printf("solver traces %d hits %d\n", solver.Stats().Traces, solver.Stats().Hits)

	refine := jit.Jit(adaptive)
	fmt.Println("adaptive:", refine.Call(inits[0]))
}
