// Package seqkit has the pieces of a small recurrent language model: a GRU
// cell, embeddings by one-hot products, a Scan-based encoder, and samplers
// (greedy, temperature, top-k).
package seqkit

import (
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// GRU is a gated recurrent unit's parameters (input, hidden and bias for
// the update gate z, the reset gate r and the candidate state h).
type GRU struct {
	Wz, Wr, Wh jit.Array // [in, hidden]
	Uz, Ur, Uh jit.Array // [hidden, hidden]
	Bz, Br, Bh jit.Array // [hidden]
}

func uniform(rng *rand.Rand, scale float64, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32((rng.Float64()*2 - 1) * scale)
	}
	return jit.FromSlice(v, shape...)
}

// NewGRU initialises a cell uniformly in ±1/sqrt(hidden), as PyTorch does.
func NewGRU(rng *rand.Rand, in, hidden int) GRU {
	s := 1 / math.Sqrt(float64(hidden))
	return GRU{
		Wz: uniform(rng, s, in, hidden), Wr: uniform(rng, s, in, hidden), Wh: uniform(rng, s, in, hidden),
		Uz: uniform(rng, s, hidden, hidden), Ur: uniform(rng, s, hidden, hidden), Uh: uniform(rng, s, hidden, hidden),
		Bz: uniform(rng, s, hidden), Br: uniform(rng, s, hidden), Bh: uniform(rng, s, hidden),
	}
}

// Step advances the hidden state h by one input x.
func (g GRU) Step(h, x jit.Array) jit.Array {
	z := x.MatMul(g.Wz).Add(h.MatMul(g.Uz)).Add(g.Bz).Logistic()
	r := x.MatMul(g.Wr).Add(h.MatMul(g.Ur)).Add(g.Br).Logistic()
	cand := x.MatMul(g.Wh).Add(r.Mul(h).MatMul(g.Uh)).Add(g.Bh).Tanh()
	return z.Mul(h).Add(z.Neg().Add(1).Mul(cand))
}

// LM is a character-level GRU language model.
type LM struct {
	Embed jit.Array // [vocab, embed]
	Cell  GRU
	Out   jit.Array // [hidden, vocab]
	OutB  jit.Array // [vocab]
}

// NewLM builds a model with seeded random weights.
func NewLM(seed int64, vocab, embed, hidden int) LM {
	rng := rand.New(rand.NewSource(seed))
	return LM{
		Embed: uniform(rng, 1, vocab, embed),
		Cell:  NewGRU(rng, embed, hidden),
		Out:   uniform(rng, 4/math.Sqrt(float64(hidden)), hidden, vocab),
		OutB:  jit.Zeros(jit.Float32, vocab),
	}
}

// Vocab is the number of tokens.
func (m LM) Vocab() int { return m.Embed.Shape()[0] }

// Hidden is the width of the state.
func (m LM) Hidden() int { return m.Out.Shape()[0] }

// OneHot encodes an integer scalar token as a float vector of length n.
func OneHot(tok jit.Array, n int) jit.Array {
	return jit.Arange(n, jit.Int32).Eq(tok).Astype(jit.Float32)
}

// Embedding looks a token up (one-hot times the table).
func (m LM) Embedding(tok jit.Array) jit.Array {
	return OneHot(tok, m.Vocab()).MatMul(m.Embed)
}

// Logits maps a state to next-token scores.
func (m LM) Logits(h jit.Array) jit.Array {
	return h.MatMul(m.Out).Add(m.OutB)
}

// Next consumes one token: the new state and the logits after it.
func (m LM) Next(h, tok jit.Array) (jit.Array, jit.Array) {
	h = m.Cell.Step(h, m.Embedding(tok))
	return h, m.Logits(h)
}

// Encode runs the cell over a sequence of int32 tokens with one scan.
func (m LM) Encode(h0, tokens jit.Array) jit.Array {
	h, _ := jit.Scan(func(h, tok jit.Array) (jit.Array, struct{}) {
		return m.Cell.Step(h, m.Embedding(tok)), struct{}{}
	}, h0, tokens)
	return h
}

// Argmax returns the index of the largest element of a vector (the first
// one on ties) as an int32 scalar.
func Argmax(v jit.Array) jit.Array {
	n := v.Shape()[0]
	idx := jit.Arange(n, jit.Int32)
	return jit.Where(v.Eq(v.MaxReduce()), idx, int32(n)).MinReduce()
}

// Softmax normalises logits into probabilities.
func Softmax(logits jit.Array) jit.Array {
	e := logits.Sub(logits.MaxReduce()).Exp()
	return e.Div(e.Sum())
}

// TopK keeps the k largest logits and pushes the rest to a large negative
// value, as in top-k sampling.
func TopK(logits jit.Array, k int) jit.Array {
	keep := jit.Zeros(jit.Bool, logits.Shape()...)
	rest := logits
	for i := 0; i < k; i++ {
		hit := rest.Eq(rest.MaxReduce())
		keep = keep.Or(hit)
		rest = jit.Where(hit, -1e9, rest)
	}
	return jit.Where(keep, logits, -1e9)
}

// upperOnes is the [n, n] matrix with ones on and above the diagonal:
// p @ upperOnes is the running sum of p.
func upperOnes(n int) jit.Array {
	m := make([]float32, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			m[i*n+j] = 1
		}
	}
	return jit.FromSlice(m, n, n)
}

// Categorical draws an index from probs by inverting the CDF at u in [0, 1).
func Categorical(probs, u jit.Array) jit.Array {
	n := probs.Shape()[0]
	cdf := probs.MatMul(upperOnes(n))
	return cdf.Lt(u).Astype(jit.Int32).Sum().Min(int32(n - 1))
}
