// Package optlib is an optimizer library: Adam counts its steps in the
// struct, which a traced caller must not keep across calls.
package optlib

import "github.com/jitlint/jitlint/jit"

// Adam holds a learning rate and the number of steps taken.
type Adam struct {
	LR    float64
	Steps int
}

// NewAdam makes an Adam state.
func NewAdam(lr float64) *Adam { return &Adam{LR: lr} }

// Step applies one update and counts it.
func (a *Adam) Step(p, g jit.Array) jit.Array { // want Step:`writes its receiver's Steps; stages 2 ops`
	a.Steps++
	return p.Sub(g.Mul(a.LR))
}

// Tune sets the learning rate.
func (a *Adam) Tune(lr float64) { // want Tune:`writes its receiver's LR`
	a.LR = lr
}

// Apply applies one update without counting it: no write, no state
// fact.
func (a *Adam) Apply(p, g jit.Array) jit.Array { // want Apply:`stages 2 ops`
	return p.Sub(g.Mul(a.LR))
}

// Decayed returns the update with a decayed rate: it writes a copy of
// its receiver, which the caller does not see; no state fact.
func (a Adam) Decayed(p, g jit.Array) jit.Array { // want Decayed:`stages 2 ops`
	a.LR *= 0.5
	return p.Sub(g.Mul(a.LR))
}

// Fresh returns an update from a state of its own: no state fact.
func (a *Adam) Fresh(p, g jit.Array) jit.Array { // want Fresh:`stages 2 ops`
	b := &Adam{LR: a.LR}
	b.Steps++
	return p.Sub(g.Mul(b.LR))
}
