// Command sim advances a damped spring system through its methods: the
// jitted rollout calls a step method in a Go loop.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type Sim struct {
	K, Damp float64
}

// step is one semi-implicit Euler step.
func (s Sim) step(pos, vel jit.Array) (jit.Array, jit.Array) {
	vel = vel.Sub(pos.Mul(s.K * 0.01)).Mul(1 - s.Damp)
	return pos.Add(vel.Mul(0.01)), vel
}

// Rollout takes 50 steps.
func (s Sim) Rollout(pos, vel jit.Array) jit.Array {
	for i := 0; i < 50; i++ { // want unrolledloop
		pos, vel = s.step(pos, vel)
	}
	return pos
}

// Energy is a short reduction over the two state arrays.
func (s Sim) Energy(state []jit.Array) jit.Array {
	e := jit.Scalar(float32(0))
	for _, v := range state {
		e = e.Add(v.Pow(2).Sum())
	}
	return e.Mul(0.5)
}

func main() {
	s := Sim{K: 4, Damp: 0.01}
	roll := jit.Jit(s.Rollout)
	energy := jit.Jit(s.Energy)
	pos, vel := jit.Ones(jit.Float32, 5), jit.Zeros(jit.Float32, 5)
	for range 3 {
		pos = roll.Call(pos, vel)
		fmt.Println(energy.Call([]jit.Array{pos, vel}).Item())
	}
}
