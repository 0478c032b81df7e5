package a

import "github.com/jitlint/jitlint/jit"

// Rows grouped by a key (m[k] = append(m[k], row)) make one slice per key,
// as long as the data put there: a loop over the keys reads a new length
// on each, while a loop that reads one key reads the same slice each time.

type gsRating struct {
	user int
	val  float32
}

var gsFold = jit.Jit(func(x jit.Array) jit.Array { return x.Sum() })

func gsGroups(ratings []gsRating) {
	byUser := map[int][]float32{}
	for _, r := range ratings {
		byUser[r.user] = append(byUser[r.user], r.val)
	}
	for u := 0; u < 10; u++ {
		gsFold.Call(jit.FromSlice(byUser[u])) // want `argument x has a different shape on each iteration`
	}
	for range 10 {
		gsFold.Call(jit.FromSlice(byUser[3])) // not reported: the same user's ratings each time
	}
}
