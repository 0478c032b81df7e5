package a

import (
	"math/rand"
	randv2 "math/rand/v2"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// Generators passed to a helper that draws from its parameter: the draw is
// frozen at trace time, which changes nothing when every traced caller
// makes the generator from constants or static arguments (the same numbers
// on every call with the same static arguments), and loses the randomness
// otherwise.

// rsSample draws a normal sample; its callers all seed deterministically.
func rsSample(rng *rand.Rand) jit.Array {
	z := make([]float32, 4)
	for i := range z {
		z[i] = float32(rng.NormFloat64())
	}
	return jit.FromSlice(z)
}

// RsFixed seeds its generator with a constant: not reported.
func RsFixed(x jit.Array) jit.Array {
	rng := rand.New(rand.NewSource(42))
	return x.Add(rsSample(rng))
}

var rsFixed = jit.Jit(RsFixed)

// RsEstimate seeds its generator from a static argument: not reported
// (each seed is its own compile, with its own sample).
func RsEstimate(x jit.Array, seed int64) jit.Array {
	rng := rand.New(rand.NewSource(seed))
	return x.Add(rsSample(rng))
}

var rsEstimate = jit.Jit(RsEstimate, jit.StaticArgnums(1))

// RsPCG seeds a math/rand/v2 generator with constants: not reported.
func RsPCG(x jit.Array) jit.Array {
	rng := randv2.New(randv2.NewPCG(1, 2))
	return x.Add(rng.Float64())
}

var rsPCG = jit.Jit(RsPCG)

// rsDraw is given the package's generator by one of its callers.
func rsDraw(rng *rand.Rand) jit.Array {
	return jit.Scalar(float32(rng.Float64())) // want `rng.Float64 draws once, at trace time: the compiled program reuses that number on every call. Pass random values \(or a seed array\) as arguments`
}

var rsGlobal = rand.New(rand.NewSource(1))

// RsSeeded passes a constant-seeded generator.
func RsSeeded(x jit.Array) jit.Array {
	return x.Add(rsDraw(rand.New(rand.NewSource(7))))
}

// RsShared passes the package-level generator.
func RsShared(x jit.Array) jit.Array {
	return x.Add(rsDraw(rsGlobal))
}

var (
	rsSeeded = jit.Jit(RsSeeded)
	rsShared = jit.Jit(RsShared)
)

// rsJitter is given a generator seeded from the clock.
func rsJitter(rng *rand.Rand) jit.Array {
	return jit.Scalar(float32(rng.NormFloat64())) // want `rng.NormFloat64 draws once, at trace time: the compiled program reuses that number on every call`
}

// RsClock seeds from the clock: a new seed per run, frozen per trace.
func RsClock(x jit.Array) jit.Array {
	rng := rand.New(rand.NewSource(time.Now().UnixNano())) // want `time.Now reads the clock once, at trace time`
	return x.Add(rsJitter(rng))
}

var rsClock = jit.Jit(RsClock)
