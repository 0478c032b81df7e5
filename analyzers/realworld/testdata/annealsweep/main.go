// annealsweep anneals a coupled double-well chain and searches a grid of
// annealing hyper-parameters (start temperature, cooling rate, step size,
// schedule). Each configuration runs one compiled sweep; a host-driven
// sweep with a handful of steps is kept around for debugging schedules.
package main

import (
	"fmt"
	"math/rand"

	"corpus/annealsweep/anneal"

	"github.com/jitlint/jitlint/jit"
)

const (
	n     = 16
	steps = 300
)

// Landscape is the energy of a chain of coupled wells.
type Landscape struct {
	Coupling float64
}

// Energy is sum(x^4 - 2x^2 + 0.3x) + J sum((x[i+1]-x[i])^2): tilted
// double wells, coupled to their neighbours.
func (l Landscape) Energy(x jit.Array) jit.Array {
	x2 := x.Mul(x)
	local := x2.Mul(x2).Sub(x2.Mul(2)).Add(x.Mul(0.3)).Sum()
	d := x.Slice([]int{1}, []int{n}).Sub(x.Slice([]int{0}, []int{n - 1}))
	return local.Add(d.Mul(d).Sum().Mul(l.Coupling))
}

var land = Landscape{Coupling: 0.5}

// accepted counts Metropolis decisions, for the acceptance statistics.
var accepted int

// Sweep runs a whole annealing schedule as one scan over the draws.
func Sweep(cfg anneal.Config, c anneal.Chain, d anneal.Draws) (anneal.Chain, jit.Array) {
	type carry struct {
		C   anneal.Chain
		K   jit.Array
		Acc jit.Array
	}
	type draw struct{ Noise, U jit.Array }
	out, _ := jit.Scan(func(s carry, x draw) (carry, struct{}) {
		temp := anneal.Temperature(cfg, s.K)
		prop := s.C.X.Add(x.Noise.Mul(cfg.StepSize))
		next, ok := anneal.Accept(land.Energy, s.C, prop, x.U, temp)
		accepted++ // want traceeffect
		return carry{C: next, K: s.K.Add(1), Acc: s.Acc.Add(ok)}, struct{}{}
	}, carry{C: c, K: jit.Scalar(float32(0)), Acc: jit.Scalar(float32(0))}, draw{Noise: d.Noise, U: d.U})
	return out.C, out.Acc.Div(float64(cfg.Steps))
}

// Metropolis is one annealing step with the temperature as a Go number.
func Metropolis(c anneal.Chain, prop, u jit.Array, temp float64) anneal.Chain {
	next, _ := anneal.Accept(land.Energy, c, prop, u, jit.Scalar(float32(temp)))
	return next
}

// Quench polishes a state with plain gradient steps.
func Quench(x jit.Array) jit.Array {
	grad := jit.Grad[func(jit.Array) jit.Array](land.Energy)
	for k := 0; k < 60; k++ { // want unrolledloop
		x = x.Sub(grad(x).Mul(0.05))
	}
	return x
}

func draws(rng *rand.Rand, m int) anneal.Draws {
	noise := make([]float32, m*n)
	for i := range noise {
		noise[i] = float32(rng.NormFloat64())
	}
	u := make([]float32, m)
	for i := range u {
		u[i] = float32(rng.Float64())
	}
	return anneal.Draws{Noise: jit.FromSlice(noise, m, n), U: jit.FromSlice(u)}
}

func start(rng *rand.Rand) jit.Array {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(2*rng.Float64() - 1)
	}
	return jit.FromSlice(x)
}

func main() {
	rng := rand.New(rand.NewSource(2024))
	sweep := jit.Jit(Sweep)
	step := jit.Jit(Metropolis, jit.StaticArgnums(3))
	quench := jit.Jit(Quench)
	x0 := start(rng)
	energy := jit.Jit(land.Energy)

	// A short host-driven sweep, to eyeball the cooling schedule.
	c := anneal.NewChain(land.Energy, x0)
	temp := 1.0
	for k := 0; k < 10; k++ {
		d := draws(rng, 1)
		prop := c.X.Add(d.Noise.Reshape(n).Mul(0.2))
		c = step.Call(c, prop, d.U.Reshape(), temp) // want staticargs
		temp *= 0.8
	}
	fmt.Printf("host sweep: E=%.4f best=%.4f\n", c.E.Item(), c.BestE.Item())

	// Two-temperature exploration: alternate a hot and a cold move.
	levels := [2]float64{1.0, 0.05}
	for k := 0; k < 40; k++ {
		d := draws(rng, 1)
		prop := c.X.Add(d.Noise.Reshape(n).Mul(0.2))
		c = step.Call(c, prop, d.U.Reshape(), levels[k%2])
	}
	fmt.Printf("two-level: E=%.4f best=%.4f\n", c.E.Item(), c.BestE.Item())

	// The grid search.
	type result struct {
		name string
		e    float64
		rate float64
	}
	var best result
	best.e = 1e9
	for _, sched := range []string{"geometric", "linear"} {
		for _, t0 := range []float32{0.5, 2} {
			for _, alpha := range []float32{0.98, 0.995} {
				for _, ss := range []float32{0.1, 0.3} {
					cfg := anneal.Config{
						T0: jit.Scalar(t0), Alpha: jit.Scalar(alpha), StepSize: jit.Scalar(ss),
						Schedule: sched, Steps: steps,
					}
					chain := anneal.NewChain(energy.Call, x0)
					out, rate := sweep.Call(cfg, chain, draws(rng, steps))
					polished := quench.Call(out.Best)
					ref := Landscape{Coupling: land.Coupling}
					e := jit.Jit(ref.Energy).Call(polished).Item() // want staticargs
					name := fmt.Sprintf("%s T0=%.1f a=%.3f s=%.1f", sched, t0, alpha, ss)
					if e < best.e {
						best = result{name: name, e: e, rate: rate.Item()}
					}
				}
			}
		}
		fmt.Printf("after %-9s configs: best %s E=%.4f acceptance %.2f\n", sched, best.name, best.e, best.rate)
	}
	fmt.Printf("sweep compiles %d, decisions counted %d, step compiles %d, quench compiles %d\n",
		sweep.Stats().Compiles, accepted, step.Stats().Compiles, quench.Stats().Compiles)
}
