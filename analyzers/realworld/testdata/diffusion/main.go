// Command diffusion samples from a toy denoising diffusion model: a linear
// noise schedule computed on the host, a denoiser called once per timestep
// with the timestep as a static argument (one compile per step), the same
// step taking the schedule's values as arrays (one compile), and a whole
// sampler traced at once, first unrolling the schedule in a Go loop, then
// with jit.ScanN.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type config struct {
	Steps     int
	BetaStart float64
	BetaEnd   float64
}

// timesteps is the number of denoising steps of the configuration.
func timesteps(cfg config) int { return cfg.Steps }

// schedule returns the linear beta schedule of cfg.
func schedule(cfg config) []float64 {
	n := timesteps(cfg)
	betas := make([]float64, n)
	for i := range betas {
		betas[i] = cfg.BetaStart + (cfg.BetaEnd-cfg.BetaStart)*float64(i)/float64(n-1)
	}
	return betas
}

// denoiser is the "network": it shrinks x towards zero.
func denoiser(x jit.Array) jit.Array { return x.Mul(0.9).Tanh() }

// stepAt takes denoising step t, reading beta from the host table: t is
// static, so each timestep compiles its own program.
func stepAt(x jit.Array, t int, betas []float64) jit.Array {
	b := betas[t]
	return x.Sub(denoiser(x).Mul(b)).Mul(1 / (1 - b/2))
}

// stepWith takes one step with beta as an array: one program for all t.
func stepWith(x, beta jit.Array) jit.Array {
	return x.Sub(denoiser(x).Mul(beta)).Div(beta.Mul(-0.5).Add(1))
}

func main() {
	cfg := config{Steps: 40, BetaStart: 1e-4, BetaEnd: 0.02}
	betas := schedule(cfg)
	x0 := jit.Full(1, jit.Float32, 8)

	step := jit.Jit(func(x jit.Array, t int) jit.Array { return stepAt(x, t, betas) }, jit.StaticArgnums(1))
	x := x0
	for t := timesteps(cfg) - 1; t >= 0; t-- {
		x = step.Call(x, t) // want staticargs
	}
	fmt.Println("static t:", x.Sum().Item(), "compiles", step.Stats().Compiles)

	dyn := jit.Jit(stepWith)
	x = x0
	for t := timesteps(cfg) - 1; t >= 0; t-- {
		x = dyn.Call(x, jit.Scalar(float32(betas[t])))
	}
	fmt.Println("array beta:", x.Sum().Item(), "compiles", dyn.Stats().Compiles)

	// The whole sampler in one trace: the Go loop unrolls 40 steps.
	unrolled := jit.Jit(func(x jit.Array) jit.Array {
		for t := len(betas) - 1; t >= 0; t-- { // want unrolledloop
			x = x.Sub(denoiser(x).Mul(betas[t]))
		}
		return x
	})
	fmt.Println("unrolled:", unrolled.Call(x0).Sum().Item())

	// The fix: the schedule as an array, scanned over.
	sched := jit.FromSlice(betas).Astype(jit.Float32)
	scanned := jit.Jit(func(x, s jit.Array) jit.Array {
		out, _ := jit.Scan(func(x jit.Array, b jit.Array) (jit.Array, jit.Array) {
			return x.Sub(denoiser(x).Mul(b)), b
		}, x, s, jit.Reverse())
		return out
	})
	for range 3 {
		fmt.Println("scanned:", scanned.Call(x0, sched).Sum().Item())
	}

	// A short refinement schedule: 4 steps unroll harmlessly.
	short := schedule(config{Steps: 4, BetaStart: 0.01, BetaEnd: 0.02})
	refine := jit.Jit(func(x jit.Array) jit.Array {
		for _, b := range short {
			x = x.Sub(denoiser(x).Mul(b))
		}
		return x
	})
	fmt.Println("refined:", refine.Call(x0).Sum().Item())
}
