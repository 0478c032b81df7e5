// Command nucleus_sampler decodes text from a tiny bag-of-embeddings language
// model with the usual sampling tricks: temperature, top-k, nucleus (top-p)
// and an annealed temperature, with Gumbel noise for the random draws. The
// model is random, so the output is gibberish; what we care about is that the
// decoding loop behaves like the JAX version.
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocab = 24
	dim   = 8
)

// Model maps the mean embedding of the context to next-token logits.
type Model struct {
	Emb, Out jit.Array
}

func logitsOf(m Model, ctx jit.Array) jit.Array {
	return ctx.MatMul(m.Emb).Mean(0).MatMul(m.Out)
}

func maskedLogits(m Model, ctx, mask jit.Array) jit.Array {
	h := ctx.MatMul(m.Emb).Mul(mask.Reshape(-1, 1)).Sum(0)
	return h.Div(mask.Sum().Max(1)).MatMul(m.Out)
}

func argmax(z jit.Array) jit.Array {
	idx := jit.Arange(vocab, jit.Int32)
	return jit.Where(z.Eq(z.MaxReduce()), idx, vocab).MinReduce()
}

// sampleTopK keeps the k largest logits and draws with Gumbel-max.
func sampleTopK(logits, noise jit.Array, temp float64, k int) jit.Array {
	z := logits.Div(temp)
	rest, kth := z, z.MaxReduce()
	for i := 0; i < k; i++ {
		kth = rest.MaxReduce()
		rest = jit.Where(rest.Ge(kth), math.Inf(-1), rest)
	}
	return argmax(jit.Where(z.Ge(kth), z, math.Inf(-1)).Add(noise))
}

// sampleNucleus keeps the smallest set of tokens whose mass reaches p.
func sampleNucleus(logits, noise jit.Array, p float64) jit.Array {
	e := logits.Sub(logits.MaxReduce()).Exp()
	probs := e.Div(e.Sum())
	rest, cum := probs, jit.Zeros(jit.Float32)
	keep := probs.Lt(0)
	for i := 0; i < 12; i++ {
		top := rest.MaxReduce()
		open := cum.Lt(p)
		keep = keep.Or(rest.Eq(top).And(open))
		cum = cum.Add(jit.Where(open, top, 0))
		rest = jit.Where(rest.Eq(top), -1, rest)
	}
	return argmax(jit.Where(keep, logits, math.Inf(-1)).Add(noise))
}

var rng = rand.New(rand.NewPCG(3, 5))

func gumbel(n int) jit.Array {
	g := make([]float32, n)
	for i := range g {
		g[i] = float32(-math.Log(-math.Log(rng.Float64() + 1e-12))) // want traceeffect
	}
	return jit.FromSlice(g)
}

// explore is greedy decoding with a little Gumbel exploration mixed in.
func explore(logits jit.Array) jit.Array {
	return argmax(logits.Add(gumbel(vocab).Mul(0.3)))
}

func oneHot(tokens []int, rows int) (jit.Array, jit.Array) {
	data := make([]float32, rows*vocab)
	mask := make([]float32, rows)
	for i, t := range tokens {
		data[i*vocab+t] = 1
		mask[i] = 1
	}
	return jit.FromSlice(data, rows, vocab), jit.FromSlice(mask)
}

func bucket(n int) int {
	for _, b := range []int{16, 32, 64} {
		if n <= b {
			return b
		}
	}
	return n
}

const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 .,!"

func render(tokens []int) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte(alphabet[t])
	}
	return b.String()
}

func main() {
	emb, out := make([]float32, vocab*dim), make([]float32, dim*vocab)
	for i := range emb {
		emb[i] = float32(rng.NormFloat64())
		out[i] = float32(rng.NormFloat64())
	}
	m := Model{Emb: jit.FromSlice(emb, vocab, dim), Out: jit.FromSlice(out, dim, vocab)}

	full := jit.Jit(logitsOf)
	padded := jit.Jit(maskedLogits)
	topK := jit.Jit(sampleTopK, jit.StaticArgnums(2, 3))
	topP := jit.Jit(sampleNucleus, jit.StaticArgnums(2))
	greedy := jit.Jit(explore)
	prompt := []int{7, 4, 11}

	// Top-k with two presets, on the padded context.
	seq := append([]int{}, prompt...)
	for t := 0; t < 20; t++ {
		ctx, mask := oneHot(seq, bucket(len(seq)))
		logits := padded.Call(m, ctx, mask)
		temp, k := 0.7, 5
		if t%2 == 1 {
			temp, k = 1.0, 8
		}
		seq = append(seq, topK.Call(logits, gumbel(vocab), temp, k).Int())
	}
	fmt.Printf("top-k    %s (padded compiles=%d, top-k compiles=%d)\n", render(seq), padded.Stats().Compiles, topK.Stats().Compiles)

	// Nucleus sampling on the exact-length context.
	seq = append([]int{}, prompt...)
	for t := 0; t < 20; t++ {
		ctx, _ := oneHot(seq, len(seq))
		logits := full.Call(m, ctx) // want shapechurn
		seq = append(seq, topP.Call(logits, gumbel(vocab), 0.9).Int())
	}
	fmt.Printf("top-p    %s (full compiles=%d)\n", render(seq), full.Stats().Compiles)

	// Annealed temperature: start hot, cool down as the sequence grows.
	seq = append([]int{}, prompt...)
	for t := 0; t < 16; t++ {
		ctx, mask := oneHot(seq, bucket(len(seq)))
		temp := 1.5 / (1 + 0.2*float64(t))
		seq = append(seq, topK.Call(padded.Call(m, ctx, mask), gumbel(vocab), temp, 8).Int()) // want staticargs
	}
	fmt.Printf("annealed %s (top-k compiles=%d)\n", render(seq), topK.Stats().Compiles)

	// Greedy with exploration noise.
	seq = append([]int{}, prompt...)
	for t := 0; t < 10; t++ {
		ctx, mask := oneHot(seq, 16)
		seq = append(seq, greedy.Call(padded.Call(m, ctx, mask)).Int())
	}
	fmt.Printf("explore  %s (traces=%d)\n", render(seq), greedy.Stats().Traces)
}
