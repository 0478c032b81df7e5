package a

import (
	"math/rand/v2"

	"github.com/jitlint/jitlint/jit"
)

// cropper draws a crop size with the closure it holds.
type cropper struct {
	rng  *rand.Rand
	size func(*rand.Rand) int
}

func (c cropper) next(x jit.Array) jit.Array {
	s := c.size(c.rng)
	top := c.rng.IntN(128 - s + 1)
	return x.Slice([]int{top}, []int{top + s})
}

// crops: a closure choosing among three sizes is three compiles; one drawing
// from a range is a new shape almost every call.
func crops(x jit.Array) {
	few := cropper{rng: rand.New(rand.NewPCG(1, 2)), size: func(r *rand.Rand) int { return []int{24, 28, 32}[r.IntN(3)] }}
	for range 12 {
		sumSq.Call(few.next(x))
	}
	many := cropper{rng: rand.New(rand.NewPCG(3, 4)), size: func(r *rand.Rand) int { return 8 + r.IntN(100) }}
	for range 12 {
		sumSq.Call(many.next(x)) // want `argument x has a different shape on each iteration`
	}
}
