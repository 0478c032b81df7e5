// Command kvdecode greedily decodes from a tiny single-head attention
// language model over a 12-symbol vocabulary. It decodes the same prompt
// twice: once with a key/value cache that grows by one row per generated
// token, and once with a cache preallocated to the context length and
// filled in place, and checks that both decoders pick the same tokens.
package main

import (
	"fmt"

	"corpus/nnlib"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocab  = 12
	dim    = 16
	maxCtx = 32
	steps  = 12
)

// Model is an embedding with a small residual mixer, the q/k/v
// projections and the output head.
type Model struct {
	Embed           jit.Array
	Mix, Q, K, V, O nnlib.Dense
}

var cacheShapes []string

func newModel() Model {
	r := nnlib.NewRand(7)
	return Model{
		Embed: jit.FromSlice(r.Normal(vocab*dim, 1), vocab, dim),
		Mix:   nnlib.NewDense(r, dim, dim),
		Q:     nnlib.NewDense(r, dim, dim),
		K:     nnlib.NewDense(r, dim, dim),
		V:     nnlib.NewDense(r, dim, dim),
		O:     nnlib.NewDense(r, dim, vocab),
	}
}

func oneHot(tok int) jit.Array {
	v := make([]float32, vocab)
	v[tok] = 1
	return jit.FromSlice(v)
}

func project(m Model, x jit.Array) (q, k, v jit.Array) {
	e := nnlib.Residual(m.Mix, x.MatMul(m.Embed), 2)
	return m.Q.Apply(e), m.K.Apply(e), m.V.Apply(e)
}

// prefill computes the keys and values of the whole prompt at once.
func prefill(m Model, prompt jit.Array) (jit.Array, jit.Array) {
	_, k, v := project(m, prompt)
	return k, v
}

func decodeGrowing(m Model, kc, vc, tok jit.Array) (jit.Array, jit.Array, jit.Array) {
	q, k, v := project(m, tok)
	kc = jit.Concatenate(0, kc, k.Reshape(1, dim))
	vc = jit.Concatenate(0, vc, v.Reshape(1, dim))
	cacheShapes = append(cacheShapes, fmt.Sprint(kc.Shape())) // want traceeffect
	mask := jit.Ones(jit.Float32, kc.Shape()[0])
	return m.O.Apply(nnlib.Attend(q, kc, vc, mask)), kc, vc
}

func decodeFixed(m Model, kc, vc, pos, tok jit.Array) (jit.Array, jit.Array, jit.Array) {
	q, k, v := project(m, tok)
	idx := jit.Arange(maxCtx, jit.Int32)
	slot := idx.Eq(pos).Reshape(maxCtx, 1)
	kc = jit.Where(slot, k.Reshape(1, dim), kc)
	vc = jit.Where(slot, v.Reshape(1, dim), vc)
	mask := idx.Le(pos).Astype(jit.Float32)
	return m.O.Apply(nnlib.Attend(q, kc, vc, mask)), kc, vc
}

func argmax(logits jit.Array) int {
	best, bi := float32(-1e30), 0
	for i, x := range logits.Float32s() {
		if x > best {
			best, bi = x, i
		}
	}
	return bi
}

func promptArray(prompt []int) jit.Array {
	rows := make([]float32, 0, len(prompt)*vocab)
	for _, t := range prompt {
		row := make([]float32, vocab)
		row[t] = 1
		rows = append(rows, row...)
	}
	return jit.FromSlice(rows, len(prompt), vocab)
}

func generateGrowing(m Model, prompt []int) []int {
	step := jit.Jit(decodeGrowing)
	kc, vc := jit.Jit(prefill).Call(m, promptArray(prompt[:len(prompt)-1]))
	tok := prompt[len(prompt)-1]
	var out []int
	for i := 0; i < steps; i++ {
		var logits jit.Array
		logits, kc, vc = step.Call(m, kc, vc, oneHot(tok)) // want shapechurn
		tok = argmax(logits)
		out = append(out, tok)
	}
	return out
}

func generateFixed(m Model, prompt []int) []int {
	step := jit.Jit(decodeFixed)
	kc := jit.Zeros(jit.Float32, maxCtx, dim)
	vc := jit.Zeros(jit.Float32, maxCtx, dim)
	var logits jit.Array
	for pos, tok := range prompt {
		logits, kc, vc = step.Call(m, kc, vc, jit.Scalar(int32(pos)), oneHot(tok))
	}
	var out []int
	for i := 0; i < steps; i++ {
		tok := argmax(logits)
		out = append(out, tok)
		pos := len(prompt) + i
		logits, kc, vc = step.Call(m, kc, vc, jit.Scalar(int32(pos)), oneHot(tok))
	}
	return out
}

func main() {
	m := newModel()
	prompts := [][]int{{1, 4, 2, 7}, {5, 0, 11, 2, 8, 8, 6, 1, 3, 10, 4, 4, 9, 2, 7, 5, 0}}
	for _, p := range prompts {
		a := generateGrowing(m, p)
		b := generateFixed(m, p)
		fmt.Printf("prompt %v\n  growing cache: %v\n  fixed cache:   %v\n", p, a, b)
	}
	fmt.Println("fixed-cache signatures:", len(jit.Jit(decodeFixed).Signatures()))
	fmt.Println("growing cache traced at", len(cacheShapes), "lengths")
}
