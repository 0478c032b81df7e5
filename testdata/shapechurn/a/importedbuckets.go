package a

import (
	"github.com/jitlint/jitlint/jit"

	"fixtures/staticargs/sched"
)

// A bucket chosen by another package's loop, which doubles a size until
// it holds the data, is one of a few sizes however the data grow: a few
// compiles, like the same loop written here.

var ibSum = jit.Jit(func(x jit.Array) jit.Array { return x.Sum() })

func importedBuckets(rows [][]float32) {
	for n := 1; n <= 200; n++ {
		ibSum.Call(jit.Zeros(jit.Float32, sched.Grow(n), 2)) // not reported: 16, 32, 64, 128 or 256 rows
	}
	for n := 1; n <= 200; n++ {
		ibSum.Call(jit.Zeros(jit.Float32, n, 2)) // want `argument x has a different shape on each iteration`
	}
}
