// Command kvdecoder runs greedy autoregressive decoding with a tiny
// single-layer attention model and a key/value cache. Two decoders are
// compared: one that appends each step's key and value to the cache it gets
// back, and one that writes them into a cache allocated once for the maximum
// sequence length, masking the slots not yet filled.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	dModel = 16
	heads  = 4
	maxLen = 24
)

// Cache holds the keys and values of the positions decoded so far.
type Cache struct {
	K, V jit.Array
}

// Model is a single attention layer with tied input/output embeddings.
type Model struct {
	Wq, Wk, Wv, Wo jit.Array
	lastProbs      jit.Array
}

func param(seed, rows, cols int) jit.Array {
	w := make([]float32, rows*cols)
	for i := range w {
		w[i] = float32(math.Sin(float64(i*seed+7)) / math.Sqrt(float64(rows)))
	}
	return jit.FromSlice(w, rows, cols)
}

// attend runs multi-head attention of q [1, d] over k, v [T, d] with an
// additive mask [1, T].
func attend(q, k, v, bias jit.Array) jit.Array {
	hd := dModel / heads
	T := k.Shape()[0]
	outs := make([]jit.Array, 0, heads)
	for h := 0; h < heads; h++ {
		lo, hi := h*hd, (h+1)*hd
		qh := q.Slice([]int{0, lo}, []int{1, hi})
		kh := k.Slice([]int{0, lo}, []int{T, hi})
		vh := v.Slice([]int{0, lo}, []int{T, hi})
		s := qh.MatMul(kh.Transpose()).Div(math.Sqrt(float64(hd))).Add(bias)
		e := s.Sub(s.MaxReduce()).Exp()
		outs = append(outs, e.Div(e.Sum()).MatMul(vh))
	}
	return jit.Concatenate(1, outs...)
}

// StepGrow decodes one token and returns the cache with one more row.
func (m *Model) StepGrow(x jit.Array, c Cache) (jit.Array, Cache) {
	q, k, v := x.MatMul(m.Wq), x.MatMul(m.Wk), x.MatMul(m.Wv)
	c = Cache{K: jit.Concatenate(0, c.K, k), V: jit.Concatenate(0, c.V, v)}
	bias := jit.Zeros(jit.Float32, 1, c.K.Shape()[0])
	return attend(q, c.K, c.V, bias).MatMul(m.Wo).Tanh(), c
}

// StepFixed decodes the token at position pos into a preallocated cache.
func (m *Model) StepFixed(x jit.Array, c Cache, pos jit.Array) (jit.Array, Cache) {
	q, k, v := x.MatMul(m.Wq), x.MatMul(m.Wk), x.MatMul(m.Wv)
	slot := jit.Arange(maxLen, jit.Int32).Eq(pos).Reshape(maxLen, 1)
	c = Cache{K: jit.Where(slot, k, c.K), V: jit.Where(slot, v, c.V)}
	valid := jit.Arange(maxLen, jit.Int32).Le(pos).Reshape(1, maxLen)
	bias := jit.Where(valid, 0.0, -1e9)
	out := attend(q, c.K, c.V, bias)
	m.lastProbs = bias // want traceeffect
	return out.MatMul(m.Wo).Tanh(), c
}

func main() {
	m := &Model{Wq: param(3, dModel, dModel), Wk: param(5, dModel, dModel),
		Wv: param(7, dModel, dModel), Wo: param(11, dModel, dModel)}
	prompt := param(13, 1, dModel)
	steps := 12

	grow := jit.Jit(m.StepGrow)
	x := prompt
	c := Cache{K: jit.Zeros(jit.Float32, 1, dModel), V: jit.Zeros(jit.Float32, 1, dModel)}
	var growOut []float32
	for t := 0; t < steps; t++ {
		x, c = grow.Call(x, c) // want shapechurn
		growOut = append(growOut, x.Float32s()[0])
	}

	fixed := jit.Jit(m.StepFixed)
	y := prompt
	fc := Cache{K: jit.Zeros(jit.Float32, maxLen, dModel), V: jit.Zeros(jit.Float32, maxLen, dModel)}
	var fixedOut []float32
	for t := 0; t < steps; t++ {
		y, fc = fixed.Call(y, fc, jit.Scalar(int32(t)))
		fixedOut = append(fixedOut, y.Float32s()[0])
	}

	fmt.Printf("growing cache: final K %v, compiles=%d\n", c.K.Shape(), grow.Stats().Compiles)
	fmt.Printf("fixed cache:   final K %v, compiles=%d\n", fc.K.Shape(), fixed.Stats().Compiles)
	fmt.Printf("first logit per step (grow):  %.3f\n", growOut)
	fmt.Printf("first logit per step (fixed): %.3f\n", fixedOut)
}
