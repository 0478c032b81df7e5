// Package odeint integrates autonomous ODE systems dy/dt = f(y) with
// classic Runge-Kutta, written so it can run inside jitted code.
package odeint

import "github.com/jitlint/jitlint/jit"

// System is the right-hand side f of dy/dt = f(y).
type System func(y jit.Array) jit.Array

// RK4 takes one fourth-order Runge-Kutta step of size dt.
func RK4(f System, y jit.Array, dt float64) jit.Array {
	k1 := f(y)
	k2 := f(y.Add(k1.Mul(dt / 2)))
	k3 := f(y.Add(k2.Mul(dt / 2)))
	k4 := f(y.Add(k3.Mul(dt)))
	return y.Add(k1.Add(k2.Mul(2)).Add(k3.Mul(2)).Add(k4).Mul(dt / 6))
}

// Integrate takes steps RK4 steps with a host loop.
func Integrate(f System, y jit.Array, dt float64, steps int) jit.Array {
	for i := 0; i < steps; i++ {
		y = RK4(f, y, dt)
	}
	return y
}

// IntegrateLoop takes steps RK4 steps inside one compiled loop.
func IntegrateLoop(f System, y jit.Array, dt float64, steps int) jit.Array {
	return jit.ForiLoop(0, steps, func(_ jit.Array, y jit.Array) jit.Array {
		return RK4(f, y, dt)
	}, y)
}
