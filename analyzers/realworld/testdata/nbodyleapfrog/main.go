// Command nbody integrates a small 2-D gravitational n-body system with a
// leapfrog integrator from package lib, and runs a scaling study over the
// number of bodies.
package main

import (
	"fmt"
	"math"

	"corpus/nbodyleapfrog/lib"
	"github.com/jitlint/jitlint/jit"
)

const (
	dt     = 0.01
	nSteps = 100
)

// System is the simulation state.
type System struct {
	Pos, Vel, Mass jit.Array
}

// SimulateUnrolled integrates nSteps steps with a Go loop.
func SimulateUnrolled(s System) System {
	pos, vel := s.Pos, s.Vel
	for step := 0; step < nSteps; step++ { // want unrolledloop
		pos, vel = lib.Leapfrog(pos, vel, s.Mass, dt)
	}
	return System{pos, vel, s.Mass}
}

// Simulate integrates nSteps steps with ScanN and returns the kinetic
// energy after each step.
func Simulate(s System) (System, jit.Array) {
	type pv struct{ Pos, Vel jit.Array }
	end, ke := jit.ScanN(func(c pv) (pv, jit.Array) {
		p, v := lib.Leapfrog(c.Pos, c.Vel, s.Mass, dt)
		return pv{p, v}, lib.Kinetic(v, s.Mass)
	}, pv{s.Pos, s.Vel}, nSteps)
	return System{end.Pos, end.Vel, s.Mass}, ke
}

// Diagnostics reports the energy of a state.
func Diagnostics(s System) jit.Array {
	lib.Record("diag", s.Pos) // want traceeffect
	return lib.Kinetic(s.Vel, s.Mass)
}

// Momentum is the total momentum (should be conserved).
func Momentum(s System) jit.Array {
	return s.Vel.Mul(s.Mass.Reshape(-1, 1)).Sum(0)
}

func ring(n int) System {
	pos := make([]float32, 2*n)
	vel := make([]float32, 2*n)
	mass := make([]float32, n)
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n)
		pos[2*i], pos[2*i+1] = float32(math.Cos(a)), float32(math.Sin(a))
		vel[2*i], vel[2*i+1] = float32(-math.Sin(a)*0.5), float32(math.Cos(a)*0.5)
		mass[i] = 1 / float32(n)
	}
	return System{jit.FromSlice(pos, n, 2), jit.FromSlice(vel, n, 2), jit.FromSlice(mass)}
}

func main() {
	s := ring(6)
	un := jit.Jit(SimulateUnrolled).Call(s)
	sc, ke := jit.Jit(Simulate).Call(s)
	fmt.Printf("unrolled vs scan: %.2g, final KE %.4f\n",
		un.Pos.Sub(sc.Pos).Abs().MaxReduce().Item(), ke.Float32s()[nSteps-1])

	diag := jit.Jit(Diagnostics)
	for i := 0; i < 3; i++ {
		diag.Call(sc)
	}
	fmt.Printf("KE: jit %.4f host %.4f (%d records)\n", diag.Call(sc).Item(), lib.KineticHost(sc.Vel, sc.Mass), len(lib.Trajectory))

	// Scaling study: a new body count every run.
	sim := jit.Jit(Simulate)
	for _, n := range []int{4, 8, 12, 16, 24} {
		end, ke := sim.Call(ring(n)) // want shapechurn
		k := ke.Float32s()
		fmt.Printf("n=%2d drift %.3g\n", n, math.Abs(float64(k[len(k)-1]-k[0])))
		_ = end
	}

	// Monitoring two fixed system sizes, alternating.
	mom := jit.Jit(Momentum)
	small, large := ring(6), ring(24)
	for i := 0; i < 10; i++ {
		sys := small
		if i%2 == 1 {
			sys = large
		}
		p := mom.Call(sys)
		_ = p
	}
	fmt.Println("momentum signatures:", len(mom.Signatures()))
}
