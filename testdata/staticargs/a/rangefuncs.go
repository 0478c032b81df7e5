package a

import (
	"iter"

	"github.com/jitlint/jitlint/jit"
)

// The body of a range over a function runs once per element that the
// iterator yields, as a loop's iteration: a closure jitted there is a new
// wrapper each time; a named function, here or passed in, shares one cache.

func rfTiles(n int) iter.Seq[jit.Array] {
	return func(yield func(jit.Array) bool) {
		for i := 0; i < n; i++ {
			if !yield(jit.Ones(jit.Float32, 4)) {
				return
			}
		}
	}
}

func rfScale(x jit.Array) jit.Array { return x.Mul(2) }

func rfApply(seq iter.Seq[jit.Array], kernel func(jit.Array) jit.Array) {
	for t := range seq {
		jit.Jit(kernel).Call(t) // not reported: every caller passes a named function
	}
}

func rfFrames(frames int) {
	for f := 0; f < frames; f++ {
		gain := 1 + 0.05*float64(f%2)
		for t := range rfTiles(8) {
			k := jit.Jit(func(x jit.Array) jit.Array { return x.Mul(gain) }) // want `jit.Jit is called on every iteration of this loop`
			k.Call(t)
			jit.Jit(rfScale).Call(t) // not reported: a named function
		}
		rfApply(rfTiles(8), rfScale)
	}
}
