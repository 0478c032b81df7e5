package lmkit

import (
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// Softmax of a 1-D array of logits.
func Softmax(logits jit.Array) jit.Array {
	e := logits.Sub(logits.MaxReduce()).Exp()
	return e.Div(e.Sum())
}

// TopP keeps the smallest set of tokens whose mass reaches p (nucleus
// filtering) and renormalises. Instead of a sort, token i is kept when the
// mass of the tokens strictly more likely than it is below p.
func TopP(probs jit.Array, p float64) jit.Array {
	v := probs.Shape()[0]
	more := probs.Reshape(1, v).Gt(probs.Reshape(v, 1)).Astype(jit.Float32)
	above := more.MatMul(probs)
	kept := jit.Where(above.Lt(p), probs, 0)
	return kept.Div(kept.Sum())
}

// SampleCDF draws a token from probs with the uniform u: the number of CDF
// entries below u, the CDF computed by a triangular matmul.
func SampleCDF(probs, u jit.Array) jit.Array {
	v := probs.Shape()[0]
	r := jit.Arange(v, jit.Int32)
	tri := r.Reshape(v, 1).Le(r.Reshape(1, v)).Astype(jit.Float32)
	return probs.MatMul(tri).Lt(u).Astype(jit.Int32).Sum().Min(v - 1)
}

// RepetitionPenalty applies the CTRL penalty once to every token that occurs
// in history (i32 ids; negative ids are empty slots): positive logits are
// divided by penalty, negative ones multiplied.
func RepetitionPenalty(logits, history jit.Array, penalty float64) jit.Array {
	v := logits.Shape()[0]
	ids := jit.Arange(v, jit.Int32)
	seen := jit.Full(0, jit.Bool, v)
	for i := 0; i < history.Shape()[0]; i++ {
		seen = seen.Or(ids.Eq(history.Slice([]int{i}, []int{i + 1}).Reshape()))
	}
	scaled := jit.Where(logits.Gt(0), logits.Div(penalty), logits.Mul(penalty))
	return jit.Where(seen, scaled, logits)
}

// GumbelNoise returns n draws of standard Gumbel noise, for Gumbel-max
// sampling: argmax(logits/T + g) is a sample of softmax(logits/T).
func GumbelNoise(rng *rand.Rand, n int) jit.Array {
	g := make([]float32, n)
	for i := range g {
		u := rng.Float64()*(1-2e-7) + 1e-7
		g[i] = float32(-math.Log(-math.Log(u)))
	}
	return jit.FromSlice(g)
}

// Argmax of a 1-D array (the first maximum).
func Argmax(x jit.Array) jit.Array {
	n := x.Shape()[0]
	return jit.Where(x.Eq(x.MaxReduce()), jit.Arange(n, jit.Int32), n).MinReduce()
}
