package a

import "github.com/jitlint/jitlint/jit"

// A dim that is the same on every iteration adds no shapes, even when its
// size is not known (the vocabulary of a model passed in): only the dims
// that change over the loop are counted.

var sdScore = jit.Jit(func(q jit.Array) jit.Array { return q.Sum() })

func sdDecode(logits jit.Array, rounds int) {
	v := logits.Shape()[1]
	k := 4
	for r := 0; r < rounds; r++ {
		sdScore.Call(jit.Zeros(jit.Float32, k, v)) // not reported: k is 4 or 2, v the same throughout
		if r%3 == 0 {
			k = 2
		} else {
			k = 4
		}
	}
	for r := 0; r < rounds; r++ {
		sdScore.Call(jit.Zeros(jit.Float32, r+1, v)) // want `argument q has a different shape on each iteration`
	}
}
