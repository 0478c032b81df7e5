// Command integrator advances a spring-mass system with a velocity-Verlet
// step whose number of substeps comes from an options struct: a static
// field of the state pytree (a few substeps: fine; many: an unrolled
// loop), and a damping coefficient that the caller anneals per frame.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type options struct {
	Substeps int     `jit:"static"`
	Dt       float64 `jit:"static"`
}

type state struct {
	Pos, Vel jit.Array
	Opts     options
}

func accel(pos jit.Array) jit.Array { return pos.Mul(-4) }

// verlet takes one velocity-Verlet step of size dt.
func verlet(pos, vel jit.Array, dt float64) (jit.Array, jit.Array) {
	a := accel(pos)
	pos = pos.Add(vel.Mul(dt)).Add(a.Mul(0.5 * dt * dt))
	vel = vel.Add(a.Add(accel(pos)).Mul(0.5 * dt))
	return pos, vel
}

// frame advances the state by Substeps Verlet steps.
func frame(s state) state {
	h := s.Opts.Dt / float64(s.Opts.Substeps)
	for range s.Opts.Substeps { // want unrolledloop
		s.Pos, s.Vel = verlet(s.Pos, s.Vel, h)
	}
	return s
}

// damped advances one step and damps the velocity by a static factor.
func damped(pos, vel jit.Array, damping float64) jit.Array {
	p, v := verlet(pos, vel, 0.01)
	return p.Add(v.Mul(1 - damping))
}

func energy(s state) jit.Array {
	return s.Pos.Mul(s.Pos).Mul(2).Add(s.Vel.Mul(s.Vel).Mul(0.5)).Sum()
}

func main() {
	pos, vel := jit.FromSlice([]float32{1, 0.5, -0.25}), jit.Zeros(jit.Float32, 3)
	fine := state{Pos: pos, Vel: vel, Opts: options{Substeps: 64, Dt: 0.05}}
	coarse := state{Pos: pos, Vel: vel, Opts: options{Substeps: 4, Dt: 0.05}}
	step := jit.Jit(frame)
	for range 5 {
		fine = step.Call(fine)
		coarse = step.Call(coarse)
	}
	e := jit.Jit(energy)
	fmt.Println("energy fine", e.Call(fine).Item(), "coarse", e.Call(coarse).Item())

	d := jit.Jit(damped, jit.StaticArgnums(2))
	p := pos
	damping := 0.5
	for frameNo := 0; frameNo < 6; frameNo++ {
		p = d.Call(p, vel, damping) // want staticargs
		damping *= 0.5
	}
	for frameNo := 0; frameNo < 6; frameNo++ {
		p = d.Call(p, vel, 0.1)
	}
	fmt.Println("damped", p)
}
