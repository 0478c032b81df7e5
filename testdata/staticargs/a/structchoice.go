package a

import "github.com/jitlint/jitlint/jit"

// A static struct chosen among a few literals takes as many values as
// there are literals, however many iterations choose between them; one
// built from the loop counter takes a new one on each.

type scPair[A, B any] struct {
	First  A
	Second B
}

func scAffine(x jit.Array, cfg scPair[float64, float64]) jit.Array {
	return x.Mul(cfg.First).Add(cfg.Second)
}

var scStep = jit.Jit(scAffine, jit.StaticArgnums(1))

func structChoice(x jit.Array) {
	for i := 0; i < 40; i++ {
		cfg := scPair[float64, float64]{First: 1, Second: 0}
		if i%10 == 9 {
			cfg = scPair[float64, float64]{First: 2, Second: -1}
		}
		scStep.Call(x, cfg) // not reported: two configurations
	}
	for i := 0; i < 40; i++ {
		cfg := scPair[float64, float64]{First: 1, Second: 0}
		if i%10 == 9 {
			cfg = scPair[float64, float64]{First: float64(i), Second: -1}
		}
		scStep.Call(x, cfg) // not reported: five configurations over 40 calls
	}
	for i := 0; i < 40; i++ {
		scStep.Call(x, scPair[float64, float64]{First: float64(i), Second: 0}) // want `static argument cfg takes a new value on every iteration: each call traces and compiles again \(40 iterations → 40 compiles\)`
	}
}
