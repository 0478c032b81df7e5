// Command particlesim bounces a batch of 1-D particles of different
// materials off a floor, vectorizing the per-particle physics with Vmap.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Particle is one particle; under Vmap every leaf gets a batch axis.
type Particle struct {
	Pos  jit.Array // height above the floor
	Vel  jit.Array
	Kind jit.Array // int32 material: 0 rubber, 1 steel, 2 clay
}

// World holds global settings, passed whole to every particle.
type World struct {
	Gravity jit.Array
	Drag    jit.Array
}

func identity(p Particle) Particle { return p }

func restitution(e float64) func(Particle) Particle {
	return func(p Particle) Particle {
		hit := p.Pos.Le(0)
		return Particle{Pos: p.Pos.Abs(), Vel: jit.Where(hit, p.Vel.Abs().Mul(e), p.Vel), Kind: p.Kind}
	}
}

var materials = []func(Particle) Particle{restitution(0.9), restitution(0.6), restitution(0.1)}

// collide resolves contact for one particle.
func collide(p Particle, w World) Particle {
	p = jit.Cond(p.Pos.Lt(0), materials[0], identity, p) // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
	p = jit.Switch(p.Kind, materials, p)                 // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
	p = jit.Cond(w.Drag.Gt(0), func(q Particle) Particle {
		return Particle{Pos: q.Pos, Vel: q.Vel.Mul(w.Drag.Neg().Add(1)), Kind: q.Kind}
	}, identity, p)
	return p
}

// settle pushes a particle out of the floor in small increments.
func settle(p Particle) Particle {
	return jit.WhileLoop(func(q Particle) jit.Array { return q.Pos.Lt(0) }, // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
		func(q Particle) Particle { return Particle{Pos: q.Pos.Add(0.05), Vel: q.Vel, Kind: q.Kind} }, p)
}

var (
	collideAll = jit.Vmap(collide, jit.InAxes(0, jit.NotMapped))
	settleAll  = jit.Vmap(settle)
)

// step advances every particle by dt (static) with substeps (static).
func step(ps Particle, w World, dt float64, substeps int) Particle {
	h := dt / float64(substeps)
	for s := 0; s < substeps; s++ {
		vel := ps.Vel.Sub(w.Gravity.Mul(h))
		ps = Particle{Pos: ps.Pos.Add(vel.Mul(h)), Vel: vel, Kind: ps.Kind}
		ps = collideAll(ps, w)
	}
	return settleAll(ps)
}

// kineticEnergy sums 0.5 v^2 until the total drops below a threshold,
// damping the whole system (the loop predicate is a single scalar).
func kineticEnergy(ps Particle) jit.Array {
	e0 := ps.Vel.Pow(2).Sum().Mul(0.5)
	return jit.WhileLoop(func(e jit.Array) jit.Array { return e.Gt(1) },
		func(e jit.Array) jit.Array { return e.Mul(0.5) }, e0)
}

func main() {
	const n = 8
	pos := make([]float32, n)
	kind := make([]int32, n)
	for i := range pos {
		pos[i] = 1 + float32(i)*0.5
		kind[i] = int32(i % 3)
	}
	ps := Particle{Pos: jit.FromSlice(pos), Vel: jit.Zeros(jit.Float32, n), Kind: jit.FromSlice(kind)}
	w := World{Gravity: jit.Scalar(float32(9.81)), Drag: jit.Scalar(float32(0.01))}

	adaptive := jit.Jit(step, jit.StaticArgnums(2, 3))
	fixed := jit.Jit(step, jit.StaticArgnums(2, 3))
	energy := jit.Jit(kineticEnergy)

	a, b := ps, ps
	for frame := 0; frame < 10; frame++ {
		vmax := 0.0
		for _, v := range a.Vel.Float32s() {
			vmax = math.Max(vmax, math.Abs(float64(v)))
		}
		dt := 0.04 / (1 + 0.1*vmax)
		a = adaptive.Call(a, w, dt, 2) // want staticargs
		b = fixed.Call(b, w, 0.02, 2)
		fmt.Printf("frame %d  dt=%.4f  heights %.2f  energy %.3f\n", frame, dt, a.Pos.Float32s()[:4], energy.Call(b).Item())
	}
	fmt.Printf("compiles: adaptive=%d fixed=%d energy=%d\n",
		adaptive.Stats().Compiles, fixed.Stats().Compiles, energy.Stats().Compiles)
	cj, err := jit.MakeJaxpr(step, jit.StaticArgnums(2, 3))(ps, w, 0.02, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("step jaxpr: %d top-level equations\n", len(cj.Eqns()))
}
