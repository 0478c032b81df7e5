// Command nbody_leapfrog integrates a small 2-D gravitational N-body system
// with the kick-drift-kick leapfrog scheme, the way our JAX astro notebook
// does: a short unrolled warm-up, a long run as a scan that records the total
// energy, and finally an adaptive time step that halves dt when particles
// move too fast.
package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/jitlint/jitlint/jit"
)

const nBodies = 8

// State is the phase-space state of the system.
type State struct {
	Pos, Vel, Mass jit.Array
}

// Config holds integrator settings; they are compiled into the program.
type Config struct {
	Dt       float64 `jit:"static"`
	Eps      float64 `jit:"static"`
	Substeps int     `jit:"static"`
}

var energyTrace []jit.Array

func accel(pos, mass jit.Array, eps float64) jit.Array {
	n := pos.Shape()[0]
	diff := pos.Reshape(1, n, 2).Sub(pos.Reshape(n, 1, 2))
	r2 := diff.Mul(diff).Sum(2)
	if eps > 0 {
		r2 = r2.Add(eps * eps)
	}
	inv := r2.Rsqrt().Pow(3).Mul(mass.Reshape(1, n))
	return diff.Mul(inv.Reshape(n, n, 1)).Sum(1)
}

func leapfrog(s State, cfg Config) State {
	dt := cfg.Dt / float64(cfg.Substeps)
	for k := 0; k < cfg.Substeps; k++ {
		v := s.Vel.Add(accel(s.Pos, s.Mass, cfg.Eps).Mul(dt / 2))
		p := s.Pos.Add(v.Mul(dt))
		v = v.Add(accel(p, s.Mass, cfg.Eps).Mul(dt / 2))
		s = State{Pos: p, Vel: v, Mass: s.Mass}
	}
	return s
}

func energy(s State, eps float64) jit.Array {
	kin := s.Vel.Mul(s.Vel).Sum(1).Mul(s.Mass).Sum().Mul(0.5)
	n := nBodies
	diff := s.Pos.Reshape(1, n, 2).Sub(s.Pos.Reshape(n, 1, 2))
	r := diff.Mul(diff).Sum(2).Add(eps * eps).Sqrt()
	mm := s.Mass.Reshape(n, 1).Mul(s.Mass.Reshape(1, n))
	pot := mm.Div(r).Sum().Mul(-0.5)
	e := kin.Add(pot)
	energyTrace = append(energyTrace, e) // want traceeffect
	return e
}

// warmup runs a fixed number of leapfrog steps.
func warmup(s State, cfg Config) State {
	for i := 0; i < 60; i++ { // want unrolledloop
		s = leapfrog(s, cfg)
	}
	jit.DebugPrint("warm-up done, energy %v", energy(s, cfg.Eps))
	return s
}

// run integrates for 500 steps and records the energy after each.
func run(s State, cfg Config) (State, jit.Array) {
	return jit.ScanN(func(c State) (State, jit.Array) {
		c = leapfrog(c, cfg)
		return c, energy(c, cfg.Eps)
	}, s, 500)
}

// snapshots returns the positions after each of a few coarse steps.
func snapshots(s State, cfg Config) jit.Array {
	var frames []jit.Array
	for i := 0; i < 6; i++ {
		s = leapfrog(s, cfg)
		frames = append(frames, s.Pos.Reshape(1, nBodies, 2))
	}
	return jit.Concatenate(0, frames...)
}

// adaptive takes one step, halving dt while the fastest body is too fast.
func adaptive(s State, cfg Config, vmax float64) State {
	speed := s.Vel.Mul(s.Vel).Sum(1).Sqrt().MaxReduce()
	for speed.Item() > vmax && cfg.Dt > 1e-5 { // want tracedbool
		cfg.Dt /= 2
	}
	return leapfrog(s, cfg)
}

func initial() State {
	r := rand.New(rand.NewPCG(42, 1))
	pos, vel, mass := make([]float32, 2*nBodies), make([]float32, 2*nBodies), make([]float32, nBodies)
	for i := 0; i < nBodies; i++ {
		a := 2 * math.Pi * float64(i) / nBodies
		rad := 1 + 0.1*r.Float64()
		pos[2*i], pos[2*i+1] = float32(rad*math.Cos(a)), float32(rad*math.Sin(a))
		vel[2*i], vel[2*i+1] = float32(-0.5*math.Sin(a)), float32(0.5*math.Cos(a))
		mass[i] = float32(1.0 / nBodies)
	}
	return State{Pos: jit.FromSlice(pos, nBodies, 2), Vel: jit.FromSlice(vel, nBodies, 2), Mass: jit.FromSlice(mass)}
}

func main() {
	cfg := Config{Dt: 0.01, Eps: 0.05, Substeps: 2}
	s := initial()
	energyOf := jit.Jit(energy, jit.StaticArgnums(1))
	e0 := energyOf.Call(s, cfg.Eps).Item()

	s = jit.Jit(warmup).Call(s, cfg)
	s, energies := jit.Jit(run).Call(s, cfg)
	es := energies.Float64s()
	drift := (es[len(es)-1] - e0) / math.Abs(e0)
	fmt.Printf("E0=%.5f  E_end=%.5f  relative drift=%.2e  (traced energies: %d)\n", e0, es[len(es)-1], drift, len(energyTrace))
	if math.Abs(drift) < 1e-3 {
		fmt.Println("energy conserved to 1e-3, keeping dt =", cfg.Dt)
	}

	frames := jit.Jit(snapshots).Call(s, Config{Dt: 0.1, Eps: 0.05, Substeps: 4})
	fmt.Println("snapshot frames:", frames.Shape())

	step := jit.Jit(adaptive, jit.StaticArgnums(2))
	fmt.Println("after one adaptive step:", step.Call(s, cfg, 0.8).Pos)
}
