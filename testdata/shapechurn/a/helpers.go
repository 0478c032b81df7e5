package a

import (
	"strings"

	"github.com/jitlint/jitlint/jit"
)

// Shapes that come out of helpers of the package.

// tokenize makes one id per word: its length is the sentence's.
func tokenize(s string) jit.Array {
	words := strings.Fields(s)
	ids := make([]float32, len(words))
	for i, w := range words {
		ids[i] = float32(len(w))
	}
	return jit.FromSlice(ids)
}

// embedOf makes a fixed-size embedding whatever the sentence.
func embedOf(s string) jit.Array {
	return jit.Full(float64(len(s)), jit.Float32, 8)
}

// records makes arrays of lengths that change from one record to the next.
func records(n int) []jit.Array {
	var out []jit.Array
	for i := range n {
		out = append(out, jit.Zeros(jit.Float32, 3+i))
	}
	return out
}

// sameSize makes n arrays of one shape.
func sameSize(n int) []jit.Array {
	var out []jit.Array
	for range n {
		out = append(out, jit.Zeros(jit.Float32, 16))
	}
	return out
}

// lengthBucket picks one of three sizes from a table it ranges over.
func lengthBucket(n int) int {
	for _, b := range []int{8, 16, 32} {
		if n <= b {
			return b
		}
	}
	return 64
}

func fromHelpers(sentences []string) {
	for _, s := range sentences {
		sumSq.Call(tokenize(s)) // want `argument x has a different shape on each iteration`
		sumSq.Call(embedOf(s))  // a fixed shape from a helper: not reported
		p, m, _ := jit.PadTo(tokenize(s), lengthBucket(len(s)))
		maskedMean.Call(p, m) // four buckets: a few compiles, not reported
	}
	for _, r := range records(30) {
		sumSq.Call(r) // want `argument x has a different shape on each iteration: one compile per distinct shape \(30 iterations → 30 compiles\)`
	}
	batches := sameSize(30)
	for _, r := range batches {
		sumSq.Call(r) // one shape: not reported
	}
}

// cycling gives three sizes over fifty calls: three compiles, then cache
// hits, not churn.
func cycling(g int) {
	for i := 0; i < 50; i++ {
		n := 1 + (g+i)%3
		sumSq.Call(jit.Full(float64(g), jit.Float32, n))
	}
	for i := 0; i < 50; i++ {
		sumSq.Call(jit.Zeros(jit.Float32, 1+i)) // want `argument x has a different shape on each iteration`
	}
}
