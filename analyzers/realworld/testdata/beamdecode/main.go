// Command beamdecode runs beam search over a toy bigram-ish language model:
// each step scores every beam's prefix and keeps the best extensions. It
// compares scoring the growing prefix directly with scoring a prefix padded
// to the maximum length under a mask.
package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocab  = 12
	hidden = 6
	maxLen = 16
	beamW  = 3
	eos    = 0
)

// Hyp is one beam hypothesis.
type Hyp struct {
	Tokens []int32
	Score  float64
}

// Batch is a group of items decoded together.
type Batch[T any] struct{ Items []T }

func (b Batch[T]) Len() int { return len(b.Items) }

// Map applies f to every element of xs.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// Model holds the toy LM weights.
type Model struct{ Emb, Out jit.Array }

// NextLogProbs scores the next token for a [beams, t] prefix of ids:
// mean of the prefix embeddings, a tanh layer, log-softmax.
func NextLogProbs(prefix jit.Array, m Model) jit.Array {
	b, t := prefix.Shape()[0], prefix.Shape()[1]
	oh := prefix.Reshape(b, t, 1).Eq(jit.Arange(vocab, jit.Int32).Reshape(1, 1, vocab)).Astype(jit.Float32)
	h := oh.MatMul(m.Emb).Mean(1).Tanh()
	return logSoftmax(h.MatMul(m.Out))
}

// NextLogProbsMasked is NextLogProbs on a prefix padded to maxLen.
func NextLogProbsMasked(prefix, mask jit.Array, m Model) jit.Array {
	b, t := prefix.Shape()[0], prefix.Shape()[1]
	oh := prefix.Reshape(b, t, 1).Eq(jit.Arange(vocab, jit.Int32).Reshape(1, 1, vocab)).Astype(jit.Float32)
	e := oh.MatMul(m.Emb).Mul(mask.Reshape(b, t, 1))
	h := e.Sum(1).Div(mask.Sum(1).Reshape(b, 1)).Tanh()
	return logSoftmax(h.MatMul(m.Out))
}

func logSoftmax(x jit.Array) jit.Array {
	b := x.Shape()[0]
	mx := x.MaxReduce(1).Reshape(b, 1)
	z := x.Sub(mx)
	return z.Sub(z.Exp().Sum(1).Log().Reshape(b, 1))
}

// PositionBias adds a position-dependent bias; step is static.
func PositionBias(step int, lp jit.Array) jit.Array {
	return lp.Add(jit.Arange(vocab, jit.Float32).Mul(0.01 * float64(step)).Sin())
}

// Finalize applies one of two length normalisations (mode is static).
func Finalize(mode int, scores, lengths jit.Array) jit.Array {
	if mode == 0 {
		return scores.Div(lengths)
	}
	return scores.Div(lengths.Add(5).Div(6).Pow(0.6))
}

// Rescore drops hypotheses that fell off the cliff.
func Rescore(scores jit.Array) jit.Array {
	if scores.MaxReduce().Item() < -1e9 { // want tracedbool
		return jit.Zeros(jit.Float32, scores.Shape()...)
	}
	return scores.Sub(scores.MaxReduce())
}

// ScorerBuilder configures a sentence scorer.
type ScorerBuilder struct{ penalty, temp float64 }

func NewScorer() *ScorerBuilder                                 { return &ScorerBuilder{penalty: 1, temp: 1} }
func (b *ScorerBuilder) LengthPenalty(p float64) *ScorerBuilder { b.penalty = p; return b }
func (b *ScorerBuilder) Temperature(t float64) *ScorerBuilder   { b.temp = t; return b }

// Build returns a jitted scorer closed over the configuration.
func (b *ScorerBuilder) Build() *jit.Func[func(jit.Array) jit.Array] {
	p, t := b.penalty, b.temp
	return jit.Jit(func(lp jit.Array) jit.Array { // want staticargs
		return lp.Div(t).Sum().Div(float64(lp.Size()) * p)
	})
}

func topK(lp []float32, k int) []int {
	idx := make([]int, len(lp))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return lp[idx[a]] > lp[idx[b]] })
	return idx[:k]
}

func step(beams []Hyp, lp []float32) []Hyp {
	var cand []Hyp
	for i, h := range beams {
		row := lp[i*vocab : (i+1)*vocab]
		for _, tok := range topK(row, beamW) {
			toks := append(append([]int32{}, h.Tokens...), int32(tok))
			cand = append(cand, Hyp{toks, h.Score + float64(row[tok])})
		}
	}
	sort.SliceStable(cand, func(a, b int) bool { return cand[a].Score > cand[b].Score })
	return cand[:min(beamW, len(cand))]
}

func prefixArray(beams []Hyp) jit.Array {
	var flat []int32
	for _, h := range beams {
		flat = append(flat, h.Tokens...)
	}
	return jit.FromSlice(flat, len(beams), len(beams[0].Tokens))
}

func paddedPrefix(beams []Hyp) (jit.Array, jit.Array) {
	ids := make([]int32, len(beams)*maxLen)
	mask := make([]float32, len(beams)*maxLen)
	for i, h := range beams {
		for j, t := range h.Tokens {
			ids[i*maxLen+j], mask[i*maxLen+j] = t, 1
		}
	}
	return jit.FromSlice(ids, len(beams), maxLen), jit.FromSlice(mask, len(beams), maxLen)
}

func show(h Hyp) string {
	return strings.Join(Map(h.Tokens, func(t int32) string { return fmt.Sprint(t) }), " ")
}

func main() {
	m := Model{
		Emb: jit.Arange(vocab*hidden, jit.Float32).Reshape(vocab, hidden).Mul(0.53).Cos(),
		Out: jit.Arange(hidden*vocab, jit.Float32).Reshape(hidden, vocab).Mul(0.29).Sin().Mul(2),
	}
	start := func() []Hyp { return []Hyp{{Tokens: []int32{1}}} }

	// Growing prefix: one new shape per step.
	next := jit.Jit(NextLogProbs)
	bias := jit.Jit(PositionBias, jit.StaticArgnums(0))
	beams := start()
	for t := 1; t < 10; t++ {
		lp := next.Call(prefixArray(beams), m) // want shapechurn
		lp = bias.Call(t, lp)                  // want staticargs
		beams = step(beams, lp.Float32s())
	}
	fmt.Println("direct (position bias):", show(beams[0]), fmt.Sprintf("%.3f", beams[0].Score))

	// Padded prefix: one program for every step.
	nextMasked := jit.Jit(NextLogProbsMasked)
	beams = start()
	for t := 1; t < 10; t++ {
		ids, mask := paddedPrefix(beams)
		lp := nextMasked.Call(ids, mask, m)
		beams = step(beams, lp.Float32s())
	}
	fmt.Println("masked:", show(beams[0]), fmt.Sprintf("%.3f", beams[0].Score))
	fmt.Printf("compiles: direct=%d masked=%d\n", next.Stats().Compiles, nextMasked.Stats().Compiles)

	// Length normalisation, alternating two modes over many requests.
	fin := jit.Jit(Finalize, jit.StaticArgnums(0))
	reqs := Batch[Hyp]{Items: beams}
	total := 0.0
	for i := 0; i < 20; i++ {
		scores := jit.FromSlice(Map(reqs.Items, func(h Hyp) float32 { return float32(h.Score) }))
		lens := jit.FromSlice(Map(reqs.Items, func(h Hyp) float32 { return float32(len(h.Tokens)) }))
		total += fin.Call(i%2, scores, lens).Sum().Item()
	}
	fmt.Printf("normalised total %.3f over %d requests (compiles=%d)\n", total, 20, fin.Stats().Compiles)

	// Per-request scorers built from a config.
	lp, _ := paddedPrefix(beams)
	for r := 0; r < 4; r++ {
		scorer := NewScorer().LengthPenalty(0.6).Temperature(1.5).Build()
		s := scorer.Call(lp.Astype(jit.Float32))
		if s.Item() > 0 {
			fmt.Printf("request %d: score %.3f\n", r, s.Item())
		}
	}

	// Rescoring needs a host decision; do it on the result instead.
	res := jit.Jit(Rescore)
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("rescore failed:", strings.SplitN(fmt.Sprint(r), "\n", 2)[0])
			}
		}()
		res.Call(jit.FromSlice([]float32{-1, -2, -3}))
	}()
	norm := jit.Jit(LengthNorm)
	for _, h := range beams {
		s := norm.Call(jit.Scalar(float32(h.Score)), jit.Scalar(float32(len(h.Tokens))))
		if s.Item() < -1e9 {
			continue
		}
		fmt.Printf("beam %s -> %.4f\n", show(h), s.Item())
	}
}

// LengthNorm divides a score by its length.
func LengthNorm(score, n jit.Array) jit.Array { return score.Div(n) }
