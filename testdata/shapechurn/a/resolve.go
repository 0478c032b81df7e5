package a

import "github.com/jitlint/jitlint/jit"

// Shapes that come from helpers with state, helpers with several results,
// and arguments evaluated per iteration.

// rsLoader serves one sentence per call, each at its own length.
type rsLoader struct {
	lengths []int
	pos     int
}

// Next returns the next sentence and whether there was one.
func (l *rsLoader) Next() (jit.Array, bool) {
	if l.pos == len(l.lengths) {
		return jit.Array{}, false
	}
	n := l.lengths[l.pos]
	l.pos++
	return jit.Zeros(jit.Float32, n), true
}

// rsRing reads frames of a fixed size at a moving offset.
type rsRing struct {
	samples []float32
	start   int
}

// frame returns the next n samples, wrapping around.
func (r *rsRing) frame(n int) jit.Array {
	window := append(r.samples[r.start:], r.samples[:r.start]...)[:n]
	r.start = (r.start + n/2) % len(r.samples)
	return jit.FromSlice(window)
}

// rest returns the samples from the offset on, and moves the offset: a
// shorter array on each call.
func (r *rsRing) rest() jit.Array {
	r.start++
	return jit.FromSlice(r.samples[r.start:])
}

func rsLoad(lengths []int) {
	it := &rsLoader{lengths: lengths}
	for x, ok := it.Next(); ok; x, ok = it.Next() {
		sumSq.Call(x) // want `argument x has a different shape on each iteration: one compile per distinct shape \(the number of compiles grows with the data\)`
	}
	again := &rsLoader{lengths: lengths}
	for {
		x, ok := again.Next()
		if !ok {
			break
		}
		sumSq.Call(x) // want `argument x has a different shape on each iteration: one compile per distinct shape \(the number of compiles grows with the data\)`
	}
	// Not reported: the ring moves its offset, not its frame size.
	r := &rsRing{samples: make([]float32, 50)}
	for range 10 {
		sumSq.Call(r.frame(32))
	}
	// What is left after the offset shrinks on each call.
	for range 10 {
		sumSq.Call(r.rest()) // want `argument x has a different shape on each iteration`
	}
}

// rsCursor is how far rsChunk has read.
var rsCursor int

// rsChunk returns a chunk one longer than the last.
func rsChunk() jit.Array {
	rsCursor++
	return jit.Zeros(jit.Float32, rsCursor)
}

// rsFixedChunk counts its calls but always returns 16 values.
func rsFixedChunk() jit.Array {
	rsCursor++
	return jit.Zeros(jit.Float32, 16)
}

func rsChunks() {
	for range 10 {
		sumSq.Call(rsChunk()) // want `argument x has a different shape on each iteration: one compile per distinct shape \(up to 10 compiles, one per iteration\)`
		sumSq.Call(rsFixedChunk())
	}
}

// rsSequence makes a sequence of n values.
func rsSequence(n int) jit.Array {
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(i%7) / 7
	}
	return jit.FromSlice(data)
}

func rsCurriculum() {
	// The length doubles every epoch: six shapes in six epochs.
	for epoch := range 6 {
		sumSq.Call(rsSequence(4 << epoch)) // want `argument x has a different shape on each iteration: one compile per distinct shape \(6 iterations → 6 compiles\)`
	}
	// Capped at 32: 8, 16, 32, then 32 again: three shapes in 14 epochs.
	for epoch := range 14 {
		seqLen := min(8<<epoch, 32)
		sumSq.Call(rsSequence(seqLen))
		sumSq.Call(rsSequence(min(8<<epoch, 32)))
	}
}

// rsBatch returns n values and a mask that covers them.
func rsBatch(n int) (x, mask jit.Array) {
	return jit.Zeros(jit.Float32, n), jit.Ones(jit.Float32, n)
}

func rsBatches(lengths []int) {
	for _, n := range lengths {
		x, mask := rsBatch(n)
		maskedMean.Call(x, mask) // want `argument x has a different shape on each iteration` `argument mask has a different shape on each iteration`
	}
	// Not reported: the same size on every iteration.
	for range lengths {
		x, mask := rsBatch(64)
		maskedMean.Call(x, mask)
	}
}
