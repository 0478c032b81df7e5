// Command montecarlo prices an option by Monte-Carlo: the noise is drawn
// on the host inside the jitted function from a generator seeded by a
// static seed (a new seed per estimate recompiles), from a generator with
// a constant seed, and from a package-level generator (drawn once, at
// trace time).
package main

import (
	"fmt"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const paths = 16

// noise draws a paths-long normal sample on the host.
func noise(rng *rand.Rand) jit.Array {
	z := make([]float32, paths)
	for i := range z {
		z[i] = float32(rng.NormFloat64())
	}
	return jit.FromSlice(z)
}

// price is the discounted mean payoff of a call struck at k.
func price(s0, k jit.Array, z jit.Array) jit.Array {
	st := s0.Mul(z.Mul(0.2).Sub(0.02).Exp())
	return st.Sub(k).Max(0).Mean().Mul(0.95)
}

// estimate seeds its generator from a static argument.
func estimate(s0, k jit.Array, seed int64) jit.Array {
	rng := rand.New(rand.NewSource(seed))
	return price(s0, k, noise(rng))
}

// fixed seeds its generator with a constant: the same sample every call.
func fixed(s0, k jit.Array) jit.Array {
	rng := rand.New(rand.NewSource(42))
	return price(s0, k, noise(rng))
}

var global = rand.New(rand.NewSource(1))

// shared draws its shift from the package-level generator.
func shared(s0, k jit.Array) jit.Array {
	shift := global.Float64() // want traceeffect
	return price(s0.Add(shift), k, jit.Zeros(jit.Float32, paths))
}

func main() {
	s0, k := jit.Scalar(float32(100)), jit.Scalar(float32(100))
	est := jit.Jit(estimate, jit.StaticArgnums(2))
	sum := 0.0
	for seed := int64(0); seed < 6; seed++ {
		sum += est.Call(s0, k, seed).Item() // want staticargs
	}
	fmt.Println("mean over seeds:", sum/6)
	fx, sh := jit.Jit(fixed), jit.Jit(shared)
	for range 4 {
		fmt.Println(fx.Call(s0, k).Item(), sh.Call(s0, k).Item())
	}
}
