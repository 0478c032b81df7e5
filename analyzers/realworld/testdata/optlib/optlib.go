// Package optlib is a small optimizer library over map pytrees, the way
// optax-style code is ported: SGD updates every parameter of the map; Adam
// keeps its step count in the struct and bumps it on every Step.
package optlib

import "github.com/jitlint/jitlint/jit"

// SGD returns params - lr*grads for every parameter of the map.
func SGD(params, grads map[string]jit.Array, lr float64) map[string]jit.Array {
	out := make(map[string]jit.Array, len(params))
	for name, p := range params {
		out[name] = p.Sub(grads[name].Mul(lr))
	}
	return out
}

// Adam holds the moments of every parameter and the step count.
type Adam struct {
	LR    float64
	Steps int
	M, V  map[string]jit.Array
}

// NewAdam makes an Adam state with zero moments shaped like params.
func NewAdam(lr float64, params map[string]jit.Array) *Adam {
	a := &Adam{LR: lr, M: map[string]jit.Array{}, V: map[string]jit.Array{}}
	for name, p := range params {
		a.M[name] = jit.Zeros(p.Dtype(), p.Shape()...)
		a.V[name] = jit.Zeros(p.Dtype(), p.Shape()...)
	}
	return a
}

// Step applies one Adam update; it counts the step in the optimizer.
func (a *Adam) Step(params, grads map[string]jit.Array) map[string]jit.Array {
	a.Steps++
	out := make(map[string]jit.Array, len(params))
	for name, p := range params {
		m := a.M[name].Mul(0.9).Add(grads[name].Mul(0.1))
		v := a.V[name].Mul(0.999).Add(grads[name].Mul(grads[name]).Mul(0.001))
		out[name] = p.Sub(m.Mul(a.LR).Div(v.Sqrt().Add(1e-8)))
	}
	return out
}
