// Command kvdecode ports a tiny character-level decoder (one attention block,
// two heads) from a JAX notebook and compares the usual ways of running greedy
// generation: a KV cache that grows with every token (jnp.concatenate in the
// original), a cache preallocated to MaxLen with a position mask
// (lax.dynamic_update_slice in the original), and the whole loop as a
// lax.while_loop.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const (
	DModel  = 16
	NHeads  = 2
	HeadDim = DModel / NHeads
	MaxLen  = 64
	NewToks = 12
)

// CharTokenizer maps characters to ids; id 0 is <bos>.
type CharTokenizer struct {
	stoi map[rune]int32
	itos []rune
}

func NewCharTokenizer(text string) *CharTokenizer {
	seen := map[rune]bool{}
	for _, r := range text {
		seen[r] = true
	}
	chars := make([]rune, 0, len(seen))
	for r := range seen {
		chars = append(chars, r)
	}
	sort.Slice(chars, func(i, j int) bool { return chars[i] < chars[j] })
	t := &CharTokenizer{stoi: map[rune]int32{}, itos: []rune{'^'}}
	for _, r := range chars {
		t.stoi[r] = int32(len(t.itos))
		t.itos = append(t.itos, r)
	}
	return t
}

func (t *CharTokenizer) Vocab() int { return len(t.itos) }

func (t *CharTokenizer) Encode(s string) []int32 {
	ids := []int32{0}
	for _, r := range s {
		ids = append(ids, t.stoi[r])
	}
	return ids
}

func (t *CharTokenizer) Decode(ids []int32) string {
	var b strings.Builder
	for _, id := range ids {
		b.WriteRune(t.itos[id])
	}
	return b.String()
}

// Params of the decoder block.
type Params struct {
	Embed          jit.Array // [V, D]
	Wq, Wk, Wv, Wo jit.Array // [D, D]
	Unembed        jit.Array // [D, V]
}

func initParams(rng *rand.Rand, vocab int) Params {
	mat := func(r, c int, scale float64) jit.Array {
		w := make([]float32, r*c)
		for i := range w {
			w[i] = float32(rng.NormFloat64() * scale)
		}
		return jit.FromSlice(w, r, c)
	}
	s := 1 / math.Sqrt(DModel)
	return Params{
		Embed: mat(vocab, DModel, 1), Wq: mat(DModel, DModel, s), Wk: mat(DModel, DModel, s),
		Wv: mat(DModel, DModel, s), Wo: mat(DModel, DModel, s), Unembed: mat(DModel, vocab, s),
	}
}

// sinusoid returns the positional encodings of pos (an f32 array of any
// shape) with a trailing axis of DModel.
func sinusoid(pos jit.Array) jit.Array {
	half := DModel / 2
	freq := jit.Arange(half, jit.Float32).Mul(-2 * math.Log(10000) / DModel).Exp()
	ang := pos.Reshape(append(pos.Shape(), 1)...).Mul(freq)
	return jit.Concatenate(pos.Ndim(), ang.Sin(), ang.Cos())
}

func softmax(x jit.Array, axis int) jit.Array {
	shp := x.Shape()
	shp[axis] = 1
	e := x.Sub(x.MaxReduce(axis).Reshape(shp...)).Exp()
	return e.Div(e.Sum(axis).Reshape(shp...))
}

func argmax(x jit.Array) jit.Array {
	n := x.Shape()[0]
	return jit.Where(x.Eq(x.MaxReduce()), jit.Arange(n, jit.Int32), n).MinReduce()
}

func embed(p Params, tok jit.Array) jit.Array {
	v := p.Embed.Shape()[0]
	return jit.Arange(v, jit.Int32).Eq(tok).Astype(jit.Float32).MatMul(p.Embed)
}

// attend runs the two heads of one query q [D] over keys and values [T, D];
// valid [T] masks the rows that hold real positions.
func attend(p Params, q, keys, vals, valid jit.Array) jit.Array {
	t := keys.Shape()[0]
	heads := make([]jit.Array, 0, NHeads)
	for h := 0; h < NHeads; h++ {
		lo, hi := h*HeadDim, (h+1)*HeadDim
		qh := q.Slice([]int{lo}, []int{hi})
		kh := keys.Slice([]int{0, lo}, []int{t, hi})
		vh := vals.Slice([]int{0, lo}, []int{t, hi})
		scores := kh.MatMul(qh).Mul(1 / math.Sqrt(HeadDim))
		w := softmax(jit.Where(valid, scores, -1e9), 0)
		heads = append(heads, w.MatMul(vh))
	}
	return jit.Concatenate(0, heads...).MatMul(p.Wo)
}

// PrefillCache runs the prompt (padded to MaxLen, n real tokens) in parallel
// with a causal mask and returns the caches and the logits after the last
// real token.
func PrefillCache(p Params, tokens jit.Array, n jit.Array) (jit.Array, jit.Array, jit.Array) {
	x := jit.Arange(p.Embed.Shape()[0], jit.Int32).Reshape(1, -1).Eq(tokens.Reshape(-1, 1)).
		Astype(jit.Float32).MatMul(p.Embed)
	x = x.Add(sinusoid(jit.Arange(MaxLen, jit.Float32)))
	keys, vals := x.MatMul(p.Wk), x.MatMul(p.Wv)
	last := jit.Arange(MaxLen, jit.Int32).Eq(n.Sub(1)).Astype(jit.Float32)
	xl := last.MatMul(x)
	valid := jit.Arange(MaxLen, jit.Int32).Lt(n)
	h := xl.Add(attend(p, xl.MatMul(p.Wq), keys, vals, valid))
	return h.MatMul(p.Unembed), keys, vals
}

// DecodeGrowing appends the new token's key and value to the caches.
func DecodeGrowing(p Params, tok, pos, keys, vals jit.Array) (jit.Array, jit.Array, jit.Array) {
	x := embed(p, tok).Add(sinusoid(pos.Astype(jit.Float32)))
	keys = jit.Concatenate(0, keys, x.MatMul(p.Wk).Reshape(1, DModel))
	vals = jit.Concatenate(0, vals, x.MatMul(p.Wv).Reshape(1, DModel))
	valid := jit.Full(1, jit.Bool, keys.Shape()[0])
	h := x.Add(attend(p, x.MatMul(p.Wq), keys, vals, valid))
	return h.MatMul(p.Unembed), keys, vals
}

// DecodePrealloc writes the new key and value at row pos of [MaxLen, D]
// caches and masks the rows after pos.
func DecodePrealloc(p Params, tok, pos, keys, vals jit.Array) (jit.Array, jit.Array, jit.Array) {
	x := embed(p, tok).Add(sinusoid(pos.Astype(jit.Float32)))
	row := jit.Arange(MaxLen, jit.Int32)
	at := row.Eq(pos).Reshape(MaxLen, 1)
	keys = jit.Where(at, x.MatMul(p.Wk).Reshape(1, DModel), keys)
	vals = jit.Where(at, x.MatMul(p.Wv).Reshape(1, DModel), vals)
	h := x.Add(attend(p, x.MatMul(p.Wq), keys, vals, row.Le(pos)))
	return h.MatMul(p.Unembed), keys, vals
}

// PrefillTokenwise is the reference port: feed the prompt one token at a
// time through the decode step, as the notebook's first version did.
func PrefillTokenwise(p Params, prompt []int32) (jit.Array, jit.Array, jit.Array) {
	keys, vals := jit.Zeros(jit.Float32, MaxLen, DModel), jit.Zeros(jit.Float32, MaxLen, DModel)
	var logits jit.Array
	for t, id := range prompt { // want unrolledloop
		logits, keys, vals = DecodePrealloc(p, jit.Scalar(id), jit.Scalar(int32(t)), keys, vals)
	}
	return logits, keys, vals
}

type genState struct {
	Tok, Pos   jit.Array
	Keys, Vals jit.Array
	Out        jit.Array
}

// GenerateWhile runs NewToks greedy steps in one while loop.
func GenerateWhile(p Params, logits, start, keys, vals jit.Array) jit.Array {
	s0 := genState{Tok: argmax(logits), Pos: start, Keys: keys, Vals: vals, Out: jit.Zeros(jit.Int32, NewToks)}
	end := start.Add(NewToks)
	s := jit.WhileLoop(func(s genState) jit.Array { return s.Pos.Lt(end) }, func(s genState) genState {
		slot := jit.Arange(NewToks, jit.Int32).Eq(s.Pos.Sub(start))
		out := jit.Where(slot, s.Tok, s.Out)
		lg, k, v := DecodePrealloc(p, s.Tok, s.Pos, s.Keys, s.Vals)
		return genState{Tok: argmax(lg), Pos: s.Pos.Add(1), Keys: k, Vals: v, Out: out}
	}, s0)
	return s.Out
}

func maxAbsDiff(a, b jit.Array) float64 { return a.Sub(b).Abs().MaxReduce().Item() }

func main() {
	corpus := "the quick brown fox jumps over the lazy dog while the cat sleeps"
	tok := NewCharTokenizer(corpus)
	p := initParams(rand.New(rand.NewSource(42)), tok.Vocab())
	prompt := tok.Encode("the quick brown fox jumps over the lazy dog")
	n := len(prompt)
	fmt.Printf("vocab=%d prompt=%d tokens\n", tok.Vocab(), n)

	padded := make([]int32, MaxLen)
	copy(padded, prompt)
	prefill := jit.Jit(PrefillCache)
	logits0, kc, vc := prefill.Call(p, jit.FromSlice(padded), jit.Scalar(int32(n)))

	ref := jit.Jit(func(p Params) (jit.Array, jit.Array, jit.Array) { return PrefillTokenwise(p, prompt) })
	refLogits, refK, _ := ref.Call(p)
	fmt.Printf("parallel vs tokenwise prefill: logits %.2g keys %.2g\n",
		maxAbsDiff(logits0, refLogits), maxAbsDiff(kc.Slice([]int{0, 0}, []int{n, DModel}), refK.Slice([]int{0, 0}, []int{n, DModel})))

	// Greedy decoding with a cache that grows by one row per token.
	grow := jit.Jit(DecodeGrowing)
	keys := kc.Slice([]int{0, 0}, []int{n, DModel})
	vals := vc.Slice([]int{0, 0}, []int{n, DModel})
	logits := logits0
	var growOut []int32
	for i := 0; i < NewToks; i++ {
		next := argmax(logits)
		growOut = append(growOut, int32(next.Int()))
		logits, keys, vals = grow.Call(p, next, jit.Scalar(int32(n+i)), keys, vals) // want shapechurn
	}
	fmt.Printf("growing cache:   %q  compiles=%d\n", tok.Decode(growOut), grow.Stats().Compiles)

	// The same with the preallocated cache.
	step := jit.Jit(DecodePrealloc)
	logits, keys, vals = logits0, kc, vc
	var preOut []int32
	for i := 0; i < NewToks; i++ {
		next := argmax(logits)
		preOut = append(preOut, int32(next.Int()))
		logits, keys, vals = step.Call(p, next, jit.Scalar(int32(n+i)), keys, vals)
	}
	fmt.Printf("preallocated:    %q  compiles=%d\n", tok.Decode(preOut), step.Stats().Compiles)

	whileGen := jit.Jit(GenerateWhile)
	ids := whileGen.Call(p, logits0, jit.Scalar(int32(n)), kc, vc).Int32s()
	fmt.Printf("while_loop:      %q  compiles=%d\n", tok.Decode(ids), whileGen.Stats().Compiles)

	agree := 0
	for i := range ids {
		if ids[i] == preOut[i] && ids[i] == growOut[i] {
			agree++
		}
	}
	fmt.Printf("all three agree on %d/%d tokens\n", agree, NewToks)
}
