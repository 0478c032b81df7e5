// Command advtrainer trains a one-dimensional generative adversarial pair:
// an affine generator that maps standard normal noise to samples, and a
// logistic discriminator that tells them from draws of N(3, 0.5). Updates
// alternate between the two players, the learning rate warms up linearly
// over the first steps, and the discriminator is probed with decaying
// instance noise to monitor how separable the two distributions still are.
package main

import (
	"fmt"
	"log"
	"math"
	"math/rand"
	"os"

	"github.com/jitlint/jitlint/jit"
)

// State holds both players' parameters.
type State struct {
	GA, GB jit.Array // generator: a*z + b
	DW, DC jit.Array // discriminator: sigmoid(w*x + c)
}

const batch = 32

func dLoss(st State, z, real jit.Array) jit.Array {
	fake := z.Mul(st.GA).Add(st.GB)
	pr := real.Mul(st.DW).Add(st.DC)
	pf := fake.Mul(st.DW).Add(st.DC)
	return jit.Softplus(pr.Neg()).Mean().Add(jit.Softplus(pf).Mean())
}

func gLoss(st State, z, real jit.Array) jit.Array {
	fake := z.Mul(st.GA).Add(st.GB)
	return jit.Softplus(fake.Mul(st.DW).Add(st.DC).Neg()).Mean()
}

var (
	dGrad = jit.Grad[func(State, jit.Array, jit.Array) State](dLoss)
	gGrad = jit.Grad[func(State, jit.Array, jit.Array) State](gLoss)
)

// update performs one step of player phase (0: discriminator, 1: generator).
func update(phase int64, lr float64, st State, z, real jit.Array) State {
	log.Printf("building update phase=%d lr=%.3f", phase, lr) // want traceeffect
	if phase == 0 {
		g := dGrad(st, z, real)
		return State{GA: st.GA, GB: st.GB, DW: st.DW.Sub(g.DW.Mul(lr)), DC: st.DC.Sub(g.DC.Mul(lr))}
	}
	g := gGrad(st, z, real)
	return State{GA: st.GA.Sub(g.GA.Mul(lr)), GB: st.GB.Sub(g.GB.Mul(lr)), DW: st.DW, DC: st.DC}
}

// separability is the discriminator's mean confidence on real samples
// blurred with Gaussian noise of scale sigma (quadrature over 5 nodes).
func separability(sigma float64, st State, real jit.Array) jit.Array {
	nodes := []float64{-2, -1, 0, 1, 2}
	acc := jit.Zeros(jit.Float32, batch)
	for _, n := range nodes {
		acc = acc.Add(real.Add(n * sigma).Mul(st.DW).Add(st.DC).Logistic())
	}
	return acc.Div(float64(len(nodes))).Mean()
}

func normals(r *rand.Rand, mu, sd float64) jit.Array {
	xs := make([]float32, batch)
	for i := range xs {
		xs[i] = float32(mu + sd*r.NormFloat64())
	}
	return jit.FromSlice(xs)
}

func main() {
	log.SetOutput(os.Stdout)
	log.SetFlags(0)
	r := rand.New(rand.NewSource(1))
	one := func(v float32) jit.Array { return jit.Scalar(v) }
	st := State{GA: one(1), GB: one(0), DW: one(0.1), DC: one(0)}

	step := jit.Jit(update, jit.StaticArgnums(0, 1))
	probe := jit.Jit(separability, jit.StaticArgnums(0))
	const base = 0.2
	var seps []float64
	for s := 0; s < 40; s++ {
		lr := math.Min(base, base*float64(s+1)/4)
		st = step.Call(int64(s%2), lr, st, normals(r, 0, 1), normals(r, 3, 0.5))
		if s%4 == 3 {
			sigma := 0.5 * math.Exp(-float64(s)/12)
			seps = append(seps, probe.Call(sigma, st, normals(r, 3, 0.5)).Item()) // want staticargs
		}
	}
	fmt.Printf("generator: a=%.3f b=%.3f\n", st.GA.Item(), st.GB.Item())
	fmt.Printf("separability: %.3f\n", seps)
	fmt.Printf("compiles: update=%d probe=%d\n", step.Stats().Compiles, probe.Stats().Compiles)
}
