// Command reviews scores product reviews with a bag-of-embeddings model:
// reviews are bucketed by length through a config method, the learning
// rate follows a step schedule, a debugging variant pools token by token in
// a Go loop, and a training counter is kept on the model.
package main

import (
	"fmt"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

type config struct {
	buckets []int
	dim     int
}

// bucket is the smallest configured length that holds n tokens.
func (c config) bucket(n int) int {
	for _, b := range c.buckets {
		if n <= b {
			return b
		}
	}
	return c.buckets[len(c.buckets)-1]
}

type model struct {
	w       jit.Array
	updates int
}

// score averages the masked token values and squashes them.
func score(ids, mask jit.Array) jit.Array {
	x := ids.Astype(jit.Float32).Mul(0.01).Mul(mask)
	return x.Sum().Div(mask.Sum().Add(1)).Tanh()
}

// scoreTokens pools one token at a time, as a port of a Python loop does.
func scoreTokens(ids jit.Array) jit.Array {
	acc := jit.Zeros(jit.Float32)
	for t := 0; t < ids.Shape()[0]; t++ { // want unrolledloop
		acc = acc.Add(ids.Slice([]int{t}, []int{t + 1}).Astype(jit.Float32).Sum())
	}
	return acc.Tanh()
}

// step nudges the weight and counts the update on the model.
func (m *model) step(g jit.Array, lr float64) jit.Array {
	m.updates++ // want traceeffect
	return m.w.Sub(g.Mul(lr))
}

func schedule(epoch int) float64 {
	if epoch < 3 {
		return 0.1
	}
	return 0.01
}

func tokenize(s string) []int32 {
	var ids []int32
	for _, w := range strings.Fields(s) {
		ids = append(ids, int32(len(w)))
	}
	return ids
}

func main() {
	cfg := config{buckets: []int{8, 16, 64}, dim: 4}
	reviews := []string{
		"great value", "the strap broke after two days of use",
		"arrived late but works as described and the battery lasts",
		"no", "would buy again for my brother who loves hiking trips",
	}
	f := jit.Jit(score)
	for _, r := range reviews {
		ids := jit.FromSlice(tokenize(r))
		x, mask, err := jit.PadTo(ids, cfg.bucket(len(tokenize(r))))
		if err != nil {
			panic(err)
		}
		fmt.Println(r[:2], f.Call(x, mask).Item())
	}
	long := jit.FromSlice(tokenize(strings.Repeat("word ", 40)))
	fmt.Println(jit.Jit(scoreTokens).Call(long).Item())

	m := &model{w: jit.Full(0.5, jit.Float32, cfg.dim)}
	st := jit.Jit(m.step, jit.StaticArgnums(1))
	g := jit.Full(0.1, jit.Float32, cfg.dim)
	for epoch := range 8 {
		m.w = st.Call(g, schedule(epoch))
	}
	fmt.Println("updates", m.updates, "compiles", st.Stats().Compiles)
}
