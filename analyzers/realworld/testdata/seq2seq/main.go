// Command seq2seq decodes with a GRU-like cell: the time steps of the
// decoder come from a helper that allocates one output per step, the
// beams from a short fixed list; the greedy variant stops at an end token
// read inside the traced function.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type decoderConfig struct {
	Len   int
	Beams int
}

// steps allocates the decoder's outputs, one per time step.
func steps(cfg decoderConfig) []jit.Array {
	return make([]jit.Array, cfg.Len)
}

func cell(h, x, w jit.Array) jit.Array {
	return h.MatMul(w).Add(x).Tanh()
}

// decode runs the decoder for cfg.Len steps from the encoder state.
func decode(cfg decoderConfig, enc, w jit.Array) jit.Array {
	outs := steps(cfg)
	h := enc
	for t := range outs { // want unrolledloop
		h = cell(h, enc.Mul(float64(t)/float64(cfg.Len)), w)
		outs[t] = h
	}
	return jit.Concatenate(0, outs...)
}

// beams scores each beam's final state.
func beams(cfg decoderConfig, enc, w jit.Array) jit.Array {
	best := jit.Full(-1e9, jit.Float32, 1, 8)
	for b := 0; b < cfg.Beams; b++ {
		best = best.Max(cell(enc, enc.Mul(float64(b)), w))
	}
	return best
}

const eos = 3

// greedy stops when the predicted token is the end token.
func greedy(enc, w jit.Array) jit.Array {
	h := enc
	for t := 0; t < 8; t++ {
		h = cell(h, enc, w)
		tok := h.Sum().Mul(10).Astype(jit.Int32)
		if tok.Int() == eos { // want tracedbool
			break
		}
	}
	return h
}

func main() {
	cfg := decoderConfig{Len: 48, Beams: 3}
	enc := jit.Full(0.2, jit.Float32, 1, 8)
	w := jit.Full(0.05, jit.Float32, 8, 8)
	dec := jit.Jit(func(enc, w jit.Array) jit.Array { return decode(cfg, enc, w) })
	bm := jit.Jit(func(enc, w jit.Array) jit.Array { return beams(cfg, enc, w) })
	for range 3 {
		fmt.Println(dec.Call(enc, w).Shape(), bm.Call(enc, w).Sum().Item())
	}
	fmt.Println(jit.Jit(greedy).Call(enc, w))
}
