// Command adam trains with an Adam optimizer kept in a struct: one version
// counts its steps in the struct from inside the jitted update (the count
// and the bias correction are frozen at trace time), the other carries the
// step count as an array in the state it returns.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Adam holds the optimizer's hyper-parameters and step count.
type Adam struct {
	LR, B1, B2 float64
	t          int
}

// update takes one step from the moments m and v; it counts steps on the
// receiver.
func (o *Adam) update(w, g, m, v jit.Array) (jit.Array, jit.Array, jit.Array) {
	o.t++ // want traceeffect
	m = m.Mul(o.B1).Add(g.Mul(1 - o.B1))
	v = v.Mul(o.B2).Add(g.Pow(2).Mul(1 - o.B2))
	mHat := m.Div(1 - math.Pow(o.B1, float64(o.t)))
	vHat := v.Div(1 - math.Pow(o.B2, float64(o.t)))
	return w.Sub(mHat.Div(vHat.Sqrt().Add(1e-8)).Mul(o.LR)), m, v
}

// state is Adam's state as arrays, the step count included.
type state struct {
	M, V, T jit.Array
}

// step is the functional Adam step: it returns the new state.
func step(s state, w, g jit.Array) (state, jit.Array) {
	const b1, b2, lr = 0.9, 0.999, 0.01
	t := s.T.Add(1)
	m := s.M.Mul(b1).Add(g.Mul(1 - b1))
	v := s.V.Mul(b2).Add(g.Pow(2).Mul(1 - b2))
	mHat := m.Div(jit.Scalar(float32(1)).Sub(jit.Full(b1, jit.Float32).Pow(t)))
	vHat := v.Div(jit.Scalar(float32(1)).Sub(jit.Full(b2, jit.Float32).Pow(t)))
	return state{m, v, t}, w.Sub(mHat.Div(vHat.Sqrt().Add(1e-8)).Mul(lr))
}

func grad(w jit.Array) jit.Array { return w.Sub(3).Mul(2) }

func main() {
	opt := &Adam{LR: 0.01, B1: 0.9, B2: 0.999}
	upd := jit.Jit(func(w, g, m, v jit.Array) (jit.Array, jit.Array, jit.Array) {
		return opt.update(w, g, m, v)
	})
	w, m, v := jit.Zeros(jit.Float32, 4), jit.Zeros(jit.Float32, 4), jit.Zeros(jit.Float32, 4)
	for range 10 {
		w, m, v = upd.Call(w, grad(w), m, v)
	}
	fmt.Println("stateful:", w, "steps counted:", opt.t)

	s := state{jit.Zeros(jit.Float32, 4), jit.Zeros(jit.Float32, 4), jit.Scalar(float32(0))}
	f := jit.Jit(step)
	u := jit.Zeros(jit.Float32, 4)
	for range 10 {
		s, u = f.Call(s, u, grad(u))
	}
	fmt.Println("functional:", u)
}
