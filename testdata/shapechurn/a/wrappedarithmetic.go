package a

import "github.com/jitlint/jitlint/jit"

// Arithmetic on a sized integer type other than int wraps at its width,
// as a generator's state relies on: a uint32 linear congruential state
// gives lengths of 180 to 435 here, so 2500 samples make about nine chunks
// of their own lengths, not the two that unbounded arithmetic would make.

func waChunks(total int) [][]float32 {
	var out [][]float32
	t, seed := 0, uint32(7)
	for t < total {
		seed = seed*1664525 + 1013904223
		n := 180 + int(seed>>24)
		out = append(out, make([]float32, n))
		t += n
	}
	return out
}

func waStream() {
	f := jit.Jit(SumSquares)
	for _, c := range waChunks(2500) {
		f.Call(jit.FromSlice(c)) // want `argument x has a different shape on each iteration: one compile per distinct shape \(up to 9 compiles`
	}
}
