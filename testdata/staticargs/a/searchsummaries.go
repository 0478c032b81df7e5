package a

import (
	"fixtures/staticargs/sched"

	"github.com/jitlint/jitlint/jit"
)

// A search in another package (the first bucket that holds n) returns one
// of the elements of the slice it is given: a static width chosen so over
// many lengths takes at most as many values as there are buckets.

var ssBuckets = []int{8, 16, 32}

var ssPad = jit.Jit(func(x jit.Array, width int) jit.Array { return x.Sum().Mul(float64(width)) }, jit.StaticArgnums(1))

func searchSummaries(x jit.Array) {
	for n := 1; n <= 40; n++ {
		ssPad.Call(x, sched.Bucket(n, ssBuckets)) // not reported: three widths over 40 calls
	}
	for n := 1; n <= 40; n++ {
		ssPad.Call(x, sched.Bucket(n, []int{n, n + 1})) // want `static argument width takes a new value on every iteration`
	}
}
