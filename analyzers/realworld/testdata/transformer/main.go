// Command transformer runs a small transformer block: multi-head attention
// whose heads come from a helper that slices the projection per head, and
// a position-wise feed-forward applied token by token through a helper
// that splits the sequence into rows.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

type blockConfig struct {
	Heads, Dim int
}

// splitHeads cuts the model dimension into n head slices.
func splitHeads(x jit.Array, n int) []jit.Array {
	seq, dim := x.Shape()[0], x.Shape()[1]
	w := dim / n
	heads := make([]jit.Array, n)
	for h := range heads {
		heads[h] = x.Slice([]int{0, h * w}, []int{seq, (h + 1) * w})
	}
	return heads
}

// rows cuts a sequence into its tokens.
func rows(x jit.Array) []jit.Array {
	out := make([]jit.Array, x.Shape()[0])
	for t := range out { // want unrolledloop
		out[t] = x.Slice([]int{t, 0}, []int{t + 1, x.Shape()[1]})
	}
	return out
}

func attention(cfg blockConfig, x jit.Array) jit.Array {
	var outs []jit.Array
	for _, h := range splitHeads(x, cfg.Heads) {
		s := h.MatMul(h.Transpose()).Mul(1 / math.Sqrt(float64(cfg.Dim/cfg.Heads)))
		p := s.Sub(s.MaxReduce(1).Reshape(-1, 1)).Exp()
		p = p.Div(p.Sum(1).Reshape(-1, 1))
		outs = append(outs, p.MatMul(h))
	}
	return jit.Concatenate(1, outs...)
}

// feedForward applies the MLP to each token separately, as a per-token
// port of a vmapped function.
func feedForward(x, w jit.Array) jit.Array {
	var out []jit.Array
	for _, tok := range rows(x) { // want unrolledloop
		out = append(out, tok.MatMul(w).Tanh())
	}
	return jit.Concatenate(0, out...)
}

func main() {
	cfg := blockConfig{Heads: 4, Dim: 16}
	block := jit.Jit(func(x, w jit.Array) jit.Array {
		y := x.Add(attention(cfg, x))
		return y.Add(feedForward(y, w))
	})
	x := jit.Full(0.1, jit.Float32, 40, cfg.Dim)
	w := jit.Full(0.05, jit.Float32, cfg.Dim, cfg.Dim)
	for layer := range 3 {
		x = block.Call(x, w)
		fmt.Println("layer", layer, x.Sum().Item())
	}
}
