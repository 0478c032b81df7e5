// Package lib has the physics kernels of the n-body simulation.
package lib

import (
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Trajectory records diagnostics of the simulation.
var Trajectory []string

// Accel returns the softened gravitational acceleration on each body.
// pos: [n, 2], mass: [n].
func Accel(pos, mass jit.Array) jit.Array {
	n := pos.Shape()[0]
	d := pos.Reshape(1, n, 2).Sub(pos.Reshape(n, 1, 2)) // d[i,j] = p_j - p_i
	r2 := d.Pow(2).Sum(2).Add(0.05)
	inv := r2.Rsqrt().Pow(3).Mul(mass.Reshape(1, n))
	return d.Mul(inv.Reshape(n, n, 1)).Sum(1)
}

// Leapfrog advances (pos, vel) by one kick-drift-kick step of size dt.
func Leapfrog(pos, vel, mass jit.Array, dt float64) (jit.Array, jit.Array) {
	vel = vel.Add(Accel(pos, mass).Mul(dt / 2))
	pos = pos.Add(vel.Mul(dt))
	vel = vel.Add(Accel(pos, mass).Mul(dt / 2))
	return pos, vel
}

// KineticHost sums the kinetic energy on the host.
func KineticHost(vel, mass jit.Array) float64 {
	v := vel.Float32s()
	m := mass.Float32s()
	e := 0.0
	for i := range m {
		e += 0.5 * float64(m[i]) * (math.Pow(float64(v[2*i]), 2) + math.Pow(float64(v[2*i+1]), 2))
	}
	return e
}

// Kinetic is the traceable kinetic energy.
func Kinetic(vel, mass jit.Array) jit.Array {
	return vel.Pow(2).Sum(1).Mul(mass).Sum().Mul(0.5)
}

// Record appends a diagnostic line.
func Record(tag string, x jit.Array) {
	Trajectory = append(Trajectory, tag+" "+x.String())
}
