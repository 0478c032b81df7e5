// Command optimizerzoo compares optimizers on an ill-conditioned quadratic,
// each described by a generic Optimizer over its own state pytree.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Optimizer pairs an init function with a jitted update over state S.
type Optimizer[S any] struct {
	Name   string
	Init   func(p jit.Array) S
	Update *jit.Func[func(p, g jit.Array, s S) (jit.Array, S)]
	Call   func(f *jit.Func[func(p, g jit.Array, s S) (jit.Array, S)], p, g jit.Array, s S) (jit.Array, S)
}

type Momentum struct{ V jit.Array }

// AdamState keeps its step count as a static field.
type AdamState struct {
	M, V jit.Array
	Step int `jit:"static"`
}

// AdamTraced keeps its step count as an array.
type AdamTraced struct{ M, V, Step jit.Array }

var lastUpdate struct{ name string }

func momentum(p, g jit.Array, s Momentum) (jit.Array, Momentum) {
	lastUpdate.name = "momentum" // want traceeffect
	v := s.V.Mul(0.9).Add(g)
	return p.Sub(v.Mul(0.02)), Momentum{V: v}
}

func adam(p, g jit.Array, s AdamState) (jit.Array, AdamState) {
	t := float64(s.Step + 1)
	m := s.M.Mul(0.9).Add(g.Mul(0.1))
	v := s.V.Mul(0.999).Add(g.Pow(2).Mul(0.001))
	mhat := m.Div(1 - math.Pow(0.9, t))
	vhat := v.Div(1 - math.Pow(0.999, t))
	return p.Sub(mhat.Div(vhat.Sqrt().Add(1e-8)).Mul(0.1)), AdamState{M: m, V: v, Step: s.Step + 1}
}

func adamTraced(p, g jit.Array, s AdamTraced) (jit.Array, AdamTraced) {
	t := s.Step.Add(1)
	m := s.M.Mul(0.9).Add(g.Mul(0.1))
	v := s.V.Mul(0.999).Add(g.Pow(2).Mul(0.001))
	mhat := m.Div(jit.Full(0.9, jit.Float32).Pow(t).Neg().Add(1))
	vhat := v.Div(jit.Full(0.999, jit.Float32).Pow(t).Neg().Add(1))
	return p.Sub(mhat.Div(vhat.Sqrt().Add(1e-8)).Mul(0.1)), AdamTraced{M: m, V: v, Step: t}
}

// curvature estimates the largest eigenvalue of A by power iteration.
func curvature(a jit.Array) jit.Array {
	v := jit.Ones(jit.Float32, a.Shape()[0])
	for i := 0; i < 50; i++ { // want unrolledloop
		v = a.MatMul(v)
		v = v.Div(v.Pow(2).Sum().Sqrt())
	}
	return v.MatMul(a.MatMul(v))
}

// curvatureScan does the same iteration as a staged loop.
func curvatureScan(a jit.Array) jit.Array {
	v := jit.ForiLoop(0, 50, func(_ jit.Array, v jit.Array) jit.Array {
		v = a.MatMul(v)
		return v.Div(v.Pow(2).Sum().Sqrt())
	}, jit.Ones(jit.Float32, a.Shape()[0]))
	return v.MatMul(a.MatMul(v))
}

func smoothed(history jit.Array) jit.Array { return history.Mean() }

var (
	hessian = jit.FromSlice([]float32{10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.1}, 4, 4)
	grad    = jit.Jit(jit.Grad[func(jit.Array) jit.Array](objective))
	smooth  = jit.Jit(smoothed)

	allLosses []float32 // every loss of every run, for the leaderboard
)

func objective(p jit.Array) jit.Array { return p.MatMul(hessian.MatMul(p)).Mul(0.5) }

func run[S any](opt Optimizer[S], steps int) {
	p := jit.FromSlice([]float32{1, 1, 1, 1})
	s := opt.Init(p)
	window := make([]float32, 16)
	var trend float64
	for k := 0; k < steps; k++ {
		p, s = opt.Call(opt.Update, p, grad.Call(p), s)
		loss := float32(objective(p).Item())
		allLosses = append(allLosses, loss)
		overall := smooth.Call(jit.FromSlice(allLosses)).Item() // want shapechurn
		window[k%len(window)] = loss
		trend = smooth.Call(jit.FromSlice(window)).Item()
		if k%6 == 5 {
			fmt.Printf("  %-8s step %2d  loss %.5f  avg16 %.5f  avg-all %.5f\n", opt.Name, k, loss, trend, overall)
		}
	}
}

func main() {
	fmt.Printf("curvature: unrolled %.3f  scan %.3f\n",
		jit.Jit(curvature).Call(hessian).Item(), jit.Jit(curvatureScan).Call(hessian).Item())
	run(Optimizer[Momentum]{Name: "momentum", Update: jit.Jit(momentum),
		Init: func(p jit.Array) Momentum { return Momentum{V: jit.Zeros(jit.Float32, 4)} },
		Call: func(f *jit.Func[func(p, g jit.Array, s Momentum) (jit.Array, Momentum)], p, g jit.Array, s Momentum) (jit.Array, Momentum) {
			return f.Call(p, g, s)
		}}, 12)
	run(Optimizer[AdamState]{Name: "adam", Update: jit.Jit(adam),
		Init: func(p jit.Array) AdamState {
			return AdamState{M: jit.Zeros(jit.Float32, 4), V: jit.Zeros(jit.Float32, 4)}
		},
		Call: func(f *jit.Func[func(p, g jit.Array, s AdamState) (jit.Array, AdamState)], p, g jit.Array, s AdamState) (jit.Array, AdamState) {
			return f.Call(p, g, s) // want staticargs
		}}, 12)
	run(Optimizer[AdamTraced]{Name: "adam/arr", Update: jit.Jit(adamTraced),
		Init: func(p jit.Array) AdamTraced {
			return AdamTraced{M: jit.Zeros(jit.Float32, 4), V: jit.Zeros(jit.Float32, 4), Step: jit.Scalar(float32(0))}
		},
		Call: func(f *jit.Func[func(p, g jit.Array, s AdamTraced) (jit.Array, AdamTraced)], p, g jit.Array, s AdamTraced) (jit.Array, AdamTraced) {
			return f.Call(p, g, s)
		}}, 12)
	fmt.Println("last traced update:", lastUpdate.name)
}
