// Command curriculum trains a sequence model with a curriculum: the
// sequence length doubles every epoch (a new shape, so a new compile, per
// epoch); a capped curriculum stops growing at the model's context size
// and then trains at that length; and a fixed-size frame read at a moving
// offset of a ring buffer keeps one shape.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const context = 32

func trainStep(w, seq jit.Array) jit.Array {
	g := seq.Mul(w).Sub(1).Mul(seq).Mean()
	return w.Sub(g.Mul(0.01))
}

func sequence(n int) jit.Array {
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(i%7) / 7
	}
	return jit.FromSlice(data)
}

// ring is a fixed buffer read in frames that wrap around.
type ring struct {
	buf []float32
	off int
}

// frame returns the next n values.
func (r *ring) frame(n int) jit.Array {
	out := make([]float32, n)
	for i := range out {
		out[i] = r.buf[(r.off+i)%len(r.buf)]
	}
	r.off += n / 2
	return jit.FromSlice(out)
}

func main() {
	grow := jit.Jit(trainStep)
	w := jit.Scalar(float32(0))
	for epoch := range 6 {
		w = grow.Call(w, sequence(4<<epoch)) // want shapechurn
	}
	fmt.Println("growing:", w.Item(), "compiles:", grow.Stats().Compiles)

	capped := jit.Jit(trainStep)
	w = jit.Scalar(float32(0))
	for epoch := range 14 {
		seqLen := min(8<<epoch, context)
		w = capped.Call(w, sequence(seqLen))
	}
	fmt.Println("capped:", w.Item(), "compiles:", capped.Stats().Compiles)

	r := &ring{buf: make([]float32, 50)}
	for i := range r.buf {
		r.buf[i] = float32(i) / 50
	}
	stream := jit.Jit(trainStep)
	w = jit.Scalar(float32(0))
	for range 10 {
		w = stream.Call(w, r.frame(context))
	}
	fmt.Println("stream:", w.Item(), "compiles:", stream.Stats().Compiles)
}
