// Package anneal is a small simulated-annealing library: a pytree chain
// state, temperature schedules, and a compiled sweep whose length is a
// parameter.
package anneal

import "github.com/jitlint/jitlint/jit"

// Chain is the state of one annealing chain.
type Chain struct {
	X, E, Best, BestE jit.Array
}

// Config is one point of the hyper-parameter grid. Schedule and Steps are
// static (they change the program); the rest are data.
type Config struct {
	T0, Alpha, StepSize jit.Array
	Schedule            string `jit:"static"`
	Steps               int    `jit:"static"`
}

// Energy is an energy function over states.
type Energy func(x jit.Array) jit.Array

// NewChain starts a chain at x.
func NewChain(energy Energy, x jit.Array) Chain {
	e := energy(x)
	return Chain{X: x, E: e, Best: x, BestE: e}
}

// Accept is one Metropolis decision: move to prop when u < exp(-(E'-E)/T).
func Accept(energy Energy, c Chain, prop, u, temp jit.Array) (Chain, jit.Array) {
	ep := energy(prop)
	ok := u.Log().Mul(temp).Lt(c.E.Sub(ep))
	x := jit.Where(ok, prop, c.X)
	e := jit.Where(ok, ep, c.E)
	better := e.Lt(c.BestE)
	return Chain{
		X: x, E: e,
		Best:  jit.Where(better, x, c.Best),
		BestE: jit.Where(better, e, c.BestE),
	}, ok.Astype(jit.Float32)
}

// Temperature is the schedule's temperature at step k.
func Temperature(cfg Config, k jit.Array) jit.Array {
	if cfg.Schedule == "linear" {
		frac := k.Div(float64(cfg.Steps))
		return cfg.T0.Mul(frac.Neg().Add(1)).Max(1e-4)
	}
	return cfg.T0.Mul(cfg.Alpha.Pow(k))
}

// Draws are the random numbers of one sweep, drawn on the host.
type Draws struct {
	Noise, U jit.Array // [Steps, n] and [Steps]
}
