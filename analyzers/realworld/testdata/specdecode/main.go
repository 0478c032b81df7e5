// Command specdecode ports speculative sampling (Leviathan et al. / Chen et
// al.) from a PyTorch reference: a cheap bigram draft model proposes k tokens,
// a trigram target model scores all of them in one call, and the accepted
// prefix plus one corrected token are kept. The sampled text follows the
// target's distribution exactly, with fewer target calls than tokens.
package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const corpusText = `the model reads the prompt and the model writes the answer .
the draft model guesses the next word and the target model checks the guess .
a good draft saves time because the target model checks many words at once .
the answer is short and the prompt is long .`

// WordVocab is a whitespace tokenizer over a fixed corpus.
type WordVocab struct {
	ids   map[string]int32
	words []string
}

func NewWordVocab(text string) *WordVocab {
	v := &WordVocab{ids: map[string]int32{}}
	for _, w := range strings.Fields(text) {
		if _, ok := v.ids[w]; !ok {
			v.ids[w] = int32(len(v.words))
			v.words = append(v.words, w)
		}
	}
	return v
}

func (v *WordVocab) Encode(s string) []int32 {
	var out []int32
	for _, w := range strings.Fields(s) {
		out = append(out, v.ids[w])
	}
	return out
}

func (v *WordVocab) Decode(ids []int32) string {
	ws := make([]string, len(ids))
	for i, id := range ids {
		ws[i] = v.words[id]
	}
	return strings.Join(ws, " ")
}

// ngramLogits builds smoothed log-probability tables from the corpus: the
// bigram table [V, V] for the draft and the trigram table [V*V, V] (rows
// indexed by prev2*V+prev1) for the target.
func ngramLogits(ids []int32, v int) (bigram, trigram jit.Array) {
	bi := make([]float64, v*v)
	tri := make([]float64, v*v*v)
	for i := 1; i < len(ids); i++ {
		bi[int(ids[i-1])*v+int(ids[i])]++
		if i >= 2 {
			tri[(int(ids[i-2])*v+int(ids[i-1]))*v+int(ids[i])]++
		}
	}
	bl := make([]float32, v*v)
	tl := make([]float32, v*v*v)
	for a := 0; a < v; a++ {
		for c := 0; c < v; c++ {
			bl[a*v+c] = float32(math.Log(bi[a*v+c] + 0.1))
		}
	}
	for ab := 0; ab < v*v; ab++ {
		b := ab % v
		for c := 0; c < v; c++ {
			// Back off to the bigram when the trigram was never seen.
			tl[ab*v+c] = float32(math.Log(2*tri[ab*v+c] + bi[b*v+c] + 0.05))
		}
	}
	return jit.FromSlice(bl, v, v), jit.FromSlice(tl, v*v, v)
}

func onehot(tok jit.Array, n int) jit.Array {
	return jit.Arange(n, jit.Int32).Eq(tok).Astype(jit.Float32)
}

func softmax(x jit.Array) jit.Array {
	e := x.Sub(x.MaxReduce()).Exp()
	return e.Div(e.Sum())
}

// sample draws one token from probs [V] with a uniform u: the number of
// entries of the CDF below u (the CDF by a triangular matmul, no cumsum).
func sample(probs, u jit.Array) jit.Array {
	v := probs.Shape()[0]
	r := jit.Arange(v, jit.Int32)
	tri := r.Reshape(v, 1).Le(r.Reshape(1, v)).Astype(jit.Float32)
	cdf := probs.MatMul(tri)
	return cdf.Lt(u).Astype(jit.Int32).Sum().Min(v - 1)
}

// DraftPropose samples k tokens from the bigram draft, one after the other,
// and returns them with the draft distributions they were drawn from.
func DraftPropose(bigram jit.Array, k int, last jit.Array, u jit.Array) (jit.Array, jit.Array) {
	v := bigram.Shape()[0]
	toks := make([]jit.Array, 0, k)
	dists := make([]jit.Array, 0, k)
	for i := 0; i < k; i++ {
		p := softmax(onehot(last, v).MatMul(bigram))
		last = sample(p, u.Slice([]int{i}, []int{i + 1}).Reshape())
		toks = append(toks, last.Reshape(1))
		dists = append(dists, p.Reshape(1, v))
	}
	return jit.Concatenate(0, toks...), jit.Concatenate(0, dists...)
}

// targetProbs scores the k+1 positions after ctx [2] followed by draft [k].
func targetProbs(trigram, ctx, draft jit.Array) jit.Array {
	v := trigram.Shape()[1]
	seq := jit.Concatenate(0, ctx, draft)
	k := draft.Shape()[0]
	rows := make([]jit.Array, 0, k+1)
	for j := 0; j <= k; j++ {
		a := seq.Slice([]int{j}, []int{j + 1}).Reshape()
		b := seq.Slice([]int{j + 1}, []int{j + 2}).Reshape()
		rows = append(rows, softmax(onehot(a.Mul(v).Add(b), v*v).MatMul(trigram)).Reshape(1, v))
	}
	return jit.Concatenate(0, rows...)
}

// VerifyReference is the line-by-line port of the reference's acceptance
// loop: accept draft token i with probability min(1, p(x)/q(x)), stop at the
// first rejection.
func VerifyReference(trigram, ctx, draft, q, u jit.Array) jit.Array {
	v := trigram.Shape()[1]
	p := targetProbs(trigram, ctx, draft)
	k := draft.Shape()[0]
	accepted := jit.Scalar(int32(0))
	for i := 0; i < k; i++ {
		tok := onehot(draft.Slice([]int{i}, []int{i + 1}).Reshape(), v)
		pi := p.Slice([]int{i, 0}, []int{i + 1, v}).Reshape(v).Mul(tok).Sum()
		qi := q.Slice([]int{i, 0}, []int{i + 1, v}).Reshape(v).Mul(tok).Sum()
		if u.Slice([]int{i}, []int{i + 1}).Reshape().Gt(pi.Div(qi)).Bool() { // want tracedbool
			break
		}
		accepted = accepted.Add(1)
	}
	return accepted
}

// Verify is the vectorized acceptance: all k ratios at once, the accepted
// count is the index of the first rejection, and the extra token is drawn
// from the residual max(0, p - q) there (or from p after the last draft).
func Verify(trigram, ctx, draft, q, u, uFix jit.Array) (jit.Array, jit.Array) {
	v := trigram.Shape()[1]
	k := draft.Shape()[0]
	p := targetProbs(trigram, ctx, draft)
	tok := jit.Arange(v, jit.Int32).Reshape(1, v).Eq(draft.Reshape(k, 1)).Astype(jit.Float32)
	pk := p.Slice([]int{0, 0}, []int{k, v})
	ratio := pk.Mul(tok).Sum(1).Div(q.Mul(tok).Sum(1))
	rejected := u.Gt(ratio.Min(1))
	nAcc := jit.Where(rejected, jit.Arange(k, jit.Int32), k).MinReduce()

	qPad := jit.Concatenate(0, q, jit.Zeros(jit.Float32, 1, v))
	resid := p.Sub(qPad).Max(0)
	resid = resid.Div(resid.Sum(1).Reshape(k+1, 1).Max(1e-9))
	resid = jit.Where(jit.Arange(k+1, jit.Int32).Eq(k).Reshape(k+1, 1), p, resid)
	row := onehot(nAcc, k+1).MatMul(resid)
	return nAcc, sample(row, uFix)
}

func uniforms(rng *rand.Rand, n int) jit.Array {
	u := make([]float32, n)
	for i := range u {
		u[i] = rng.Float32()
	}
	return jit.FromSlice(u)
}

func main() {
	vocab := NewWordVocab(corpusText)
	v := len(vocab.words)
	bigram, trigram := ngramLogits(vocab.Encode(corpusText), v)
	rng := rand.New(rand.NewSource(2024))

	draft := jit.Jit(DraftPropose, jit.StaticArgnums(1))
	verify := jit.Jit(Verify)
	out := vocab.Encode("the draft")

	// First try the direct port of the reference loop.
	func() {
		defer func() {
			var jerr *jit.Error
			if r := recover(); r != nil {
				if err, ok := r.(error); ok && errors.As(err, &jerr) {
					fmt.Printf("reference verifier does not trace (%s); using the vectorized one\n", jerr.Kind)
					return
				}
				panic(r)
			}
		}()
		toks, q := draft.Call(bigram, 4, jit.Scalar(out[len(out)-1]), uniforms(rng, 4))
		ref := jit.Jit(VerifyReference)
		ref.Call(trigram, jit.FromSlice(out[len(out)-2:]), toks, q, uniforms(rng, 4))
	}()

	k := 4
	rounds, proposed, acceptedTotal := 0, 0, 0
	for len(out) < 40 {
		ctx := jit.FromSlice(out[len(out)-2:])
		toks, q := draft.Call(bigram, k, jit.Scalar(out[len(out)-1]), uniforms(rng, k))
		nAcc, fix := verify.Call(trigram, ctx, toks, q, uniforms(rng, k), uniforms(rng, 1).Reshape())
		n := nAcc.Int()
		out = append(out, toks.Int32s()[:n]...)
		out = append(out, int32(fix.Int()))
		rounds++
		proposed += k
		acceptedTotal += n
		// Adaptive lookahead: long drafts while they are accepted, short
		// ones after a rejection.
		if n == k {
			k = 4
		} else {
			k = 2
		}
	}
	fmt.Println(vocab.Decode(out))
	fmt.Printf("rounds=%d tokens=%d acceptance=%.2f tokens/target call=%.2f\n",
		rounds, len(out)-2, float64(acceptedTotal)/float64(proposed), float64(len(out)-2)/float64(rounds))
	fmt.Printf("draft compiles=%d (signatures %v) verify compiles=%d\n",
		draft.Stats().Compiles, draft.Signatures(), verify.Stats().Compiles)
}
