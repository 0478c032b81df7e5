// Command gradaccum trains a tiny language model with gradient
// accumulation: each jitted step averages the gradients of a few
// micro-batches whose count comes from the run's configuration; the loss
// walks the sequence token by token, as a port of a per-position loop does.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// config is the run's configuration, read once at start-up.
type config struct {
	accumSteps int
	microBatch int
	seqLen     int
	dim        int
	lr         float64
}

var cfg = config{accumSteps: 4, microBatch: 2, seqLen: 40, dim: 8, lr: 0.05}

// tokenLoss scores a micro-batch position by position: every token's
// prediction is the previous token's embedding times w.
func tokenLoss(w, emb jit.Array) jit.Array {
	total := jit.Scalar(float32(0))
	for t := 1; t < cfg.seqLen; t++ { // want unrolledloop
		prev := emb.Slice([]int{0, t - 1, 0}, []int{cfg.microBatch, t, cfg.dim}).Reshape(cfg.microBatch, cfg.dim)
		next := emb.Slice([]int{0, t, 0}, []int{cfg.microBatch, t + 1, cfg.dim}).Reshape(cfg.microBatch, cfg.dim)
		d := prev.MatMul(w).Sub(next)
		total = total.Add(d.Mul(d).Mean())
	}
	return total.Div(float64(cfg.seqLen - 1))
}

// seqLoss scores the whole sequence at once with shifted slices.
func seqLoss(w, emb jit.Array) jit.Array {
	prev := emb.Slice([]int{0, 0, 0}, []int{cfg.microBatch, cfg.seqLen - 1, cfg.dim}).Reshape(-1, cfg.dim)
	next := emb.Slice([]int{0, 1, 0}, []int{cfg.microBatch, cfg.seqLen, cfg.dim}).Reshape(-1, cfg.dim)
	d := prev.MatMul(w).Sub(next)
	return d.Mul(d).Mean()
}

type lossFn = func(w, emb jit.Array) jit.Array

// accumulate averages the gradient over cfg.accumSteps micro-batches of
// batch and takes one step.
func accumulate(loss lossFn) func(w, batch jit.Array) jit.Array {
	grad := jit.Grad[func(w, emb jit.Array) jit.Array](loss)
	return func(w, batch jit.Array) jit.Array {
		g := jit.Zeros(jit.Float32, cfg.dim, cfg.dim)
		for m := 0; m < cfg.accumSteps; m++ {
			lo := m * cfg.microBatch
			micro := batch.Slice([]int{lo, 0, 0}, []int{lo + cfg.microBatch, cfg.seqLen, cfg.dim})
			g = g.Add(grad(w, micro))
		}
		return w.Sub(g.Mul(cfg.lr / float64(cfg.accumSteps)))
	}
}

func corpusBatch(step int) jit.Array {
	n := cfg.accumSteps * cfg.microBatch * cfg.seqLen * cfg.dim
	data := make([]float32, n)
	for i := range data {
		data[i] = float32((i*7+step*3)%17)/17 - 0.5
	}
	return jit.FromSlice(data, cfg.accumSteps*cfg.microBatch, cfg.seqLen, cfg.dim)
}

func main() {
	fast := jit.Jit(accumulate(seqLoss))
	slow := jit.Jit(accumulate(tokenLoss))
	w := jit.Zeros(jit.Float32, cfg.dim, cfg.dim)
	v := w
	for step := 0; step < 3; step++ {
		b := corpusBatch(step)
		w = fast.Call(w, b)
		v = slow.Call(v, b)
	}
	fmt.Println("vectorised:", seqLoss(w, corpusBatch(0)).Item(), "per token:", tokenLoss(v, corpusBatch(0)).Item())
}
