// Command tokensampler decodes short continuations from a toy bigram language
// model over a 64-token vocabulary. The next token is drawn with the Gumbel-max
// trick from temperature-scaled logits restricted to the k most likely
// tokens; a second sampler keeps a small beam of candidates and jitters ties.
// The temperature is either fixed per request or annealed as the
// continuation grows.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const vocab = 64

// bigram returns a fixed [vocab, vocab] table of next-token logits.
func bigram() jit.Array {
	w := make([]float32, vocab*vocab)
	for i := 0; i < vocab; i++ {
		for j := 0; j < vocab; j++ {
			w[i*vocab+j] = float32(3 * math.Cos(float64((i*17+j*5)%vocab)/7))
		}
	}
	return jit.FromSlice(w, vocab, vocab)
}

// kthLargest returns the k-th largest entry of a 1-D array by peeling off
// the maximum k-1 times.
func kthLargest(x jit.Array, k int) jit.Array {
	for i := 1; i < k; i++ { // want unrolledloop
		m := x.MaxReduce()
		x = jit.Where(x.Ge(m), math.Inf(-1), x)
	}
	return x.MaxReduce()
}

// topKSample draws a token from the top-k of logits/temp with Gumbel noise g.
func topKSample(temp float64, k int, logits, g jit.Array) jit.Array {
	z := logits.Div(temp)
	thr := kthLargest(z, k)
	z = jit.Where(z.Ge(thr), z, math.Inf(-1)).Add(g)
	return jit.Arange(vocab, jit.Int32).Mul(z.Ge(z.MaxReduce()).Astype(jit.Int32)).MaxReduce()
}

// beamPrune keeps the best `width` scores of logits and breaks ties with a
// small random ramp.
func beamPrune(width int, logits jit.Array) jit.Array {
	eps := rand.Float64() * 1e-3 // want traceeffect
	z := logits.Add(jit.Arange(vocab, jit.Float32).Mul(eps))
	thr := kthLargest(z, width)
	return jit.Where(z.Ge(thr), z, math.Inf(-1))
}

func gumbel(r *rand.Rand) jit.Array {
	g := make([]float32, vocab)
	for i := range g {
		g[i] = float32(-math.Log(-math.Log(r.Float64()*0.999999 + 1e-7)))
	}
	return jit.FromSlice(g)
}

func row(table jit.Array, tok int) jit.Array {
	return table.Slice([]int{tok, 0}, []int{tok + 1, vocab}).Reshape(vocab)
}

func main() {
	table := bigram()
	r := rand.New(rand.NewSource(7))
	sample := jit.Jit(topKSample, jit.StaticArgnums(0, 1))

	requests := []struct {
		temp float64
		k    int
	}{{0.7, 40}, {1.0, 40}, {0.7, 40}, {1.0, 40}}
	for _, req := range requests {
		tok, out := 1, []int{}
		for t := 0; t < 10; t++ {
			tok = sample.Call(req.temp, req.k, row(table, tok), gumbel(r)).Int()
			out = append(out, tok)
		}
		fmt.Printf("T=%.1f k=%d: %v\n", req.temp, req.k, out)
	}

	annealed := []int{}
	tok := 3
	for t := 0; t < 10; t++ {
		temp := 1.5 / (1 + 0.25*float64(t))
		tok = sample.Call(temp, 40, row(table, tok), gumbel(r)).Int() // want staticargs
		annealed = append(annealed, tok)
	}
	fmt.Println("annealed:", annealed)

	prune := jit.Jit(beamPrune, jit.StaticArgnums(0))
	for _, tok := range []int{2, 9, 33} {
		kept := prune.Call(4, row(table, tok)).Float32s()
		n := 0
		for _, v := range kept {
			if !math.IsInf(float64(v), -1) {
				n++
			}
		}
		fmt.Printf("beam from %d keeps %d candidates\n", tok, n)
	}
	fmt.Printf("compiles: sample=%d prune=%d\n", sample.Stats().Compiles, prune.Stats().Compiles)
}
