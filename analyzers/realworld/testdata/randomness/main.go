// Command randomness adds noise inside a jitted function: from the
// package-level source (a draw at trace time), and from a local seeded
// generator (the same numbers on every call, traced or not).
package main

import (
	"fmt"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

func noisy(x jit.Array) jit.Array {
	noise := rand.Float64() // want traceeffect
	return x.Add(noise)
}

func seeded(x jit.Array) jit.Array {
	rng := rand.New(rand.NewSource(7))
	jitter := rng.Float64()
	return x.Add(jitter)
}

func main() {
	x := jit.Zeros(jit.Float32, 3)
	f, g := jit.Jit(noisy), jit.Jit(seeded)
	for range 3 {
		fmt.Println(f.Call(x), g.Call(x), rand.Float64())
	}
}
