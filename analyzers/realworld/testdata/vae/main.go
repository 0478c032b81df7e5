// Command vae trains a tiny variational auto-encoder: an encoder and a
// decoder struct over a map of parameters, a reconstruction loss plus a KL
// term weighted by beta. The warm-up passes beta as a static argument that
// grows on every step (one compile per step); the fixed schedule takes beta
// from a three-entry table per epoch. The update goes through optlib: SGD
// over the map inside the jitted step, and Adam, whose step counter is
// bumped while tracing.
package main

import (
	"fmt"

	"corpus/optlib"

	"github.com/jitlint/jitlint/jit"
)

type encoder struct{ mu, logvar string }

type decoder struct{ out string }

func (e encoder) encode(p map[string]jit.Array, x jit.Array) (jit.Array, jit.Array) {
	return x.MatMul(p[e.mu]).Tanh(), x.MatMul(p[e.logvar]).Mul(0.1)
}

func (d decoder) decode(p map[string]jit.Array, z jit.Array) jit.Array {
	return z.MatMul(p[d.out]).Logistic()
}

var (
	enc = encoder{mu: "enc_mu", logvar: "enc_lv"}
	dec = decoder{out: "dec"}
)

// elbo is reconstruction error plus beta times the KL divergence to N(0, 1).
func elbo(p map[string]jit.Array, x, eps jit.Array, beta float64) jit.Array {
	mu, logvar := enc.encode(p, x)
	z := mu.Add(logvar.Mul(0.5).Exp().Mul(eps))
	rec := dec.decode(p, z).Sub(x)
	kl := mu.Mul(mu).Add(logvar.Exp()).Sub(logvar).Sub(1).Sum().Mul(0.5)
	return rec.Mul(rec).Sum().Add(kl.Mul(beta))
}

var grad = jit.Grad[func(map[string]jit.Array, jit.Array, jit.Array, float64) map[string]jit.Array](elbo, jit.StaticArgnums(3))

func sgdStep(p map[string]jit.Array, x, eps jit.Array, beta float64) map[string]jit.Array {
	return optlib.SGD(p, grad(p, x, eps, beta), 0.05)
}

func initParams() map[string]jit.Array {
	return map[string]jit.Array{
		"enc_mu": jit.Full(0.1, jit.Float32, 6, 2),
		"enc_lv": jit.Full(0.05, jit.Float32, 6, 2),
		"dec":    jit.Full(0.2, jit.Float32, 2, 6),
	}
}

func batch(i int) jit.Array {
	data := make([]float32, 4*6)
	for j := range data {
		data[j] = float32((i+j)%5) / 5
	}
	return jit.FromSlice(data, 4, 6)
}

func main() {
	step := jit.Jit(sgdStep, jit.StaticArgnums(3))
	eps := jit.Full(0.1, jit.Float32, 4, 2)

	// Linear warm-up of beta over the first steps: a new static value each step.
	p := initParams()
	const warmup = 8
	for s := range warmup {
		beta := float64(s) / warmup
		p = step.Call(p, batch(s), eps, beta) // want staticargs
	}

	// A per-epoch schedule from a fixed table: three values, many steps each.
	betas := [3]float64{0.0, 0.5, 1.0}
	p = initParams()
	for epoch := range 6 {
		for s := range 5 {
			p = step.Call(p, batch(s), eps, betas[min(epoch, 2)])
		}
	}
	fmt.Println("sgd compiles:", step.Stats().Compiles)

	// Adam over the same map, beta fixed at 1.
	q := initParams()
	opt := optlib.NewAdam(0.01, q)
	adamStep := jit.Jit(func(p map[string]jit.Array, x, eps jit.Array) map[string]jit.Array {
		return opt.Step(p, grad(p, x, eps, 1.0)) // want traceeffect
	})
	for s := range 10 {
		q = adamStep.Call(q, batch(s), eps)
	}
	fmt.Println("adam steps counted:", opt.Steps, "of 10; final elbo", elbo(q, batch(0), eps, 1).Item())
}
