// Command docstream ranks a stream of news snippets against a standing
// query with a three-stage goroutine pipeline: tokenize -> encode -> score.
// Each stage is a goroutine connected to the next by a channel; the sink
// cancels the pipeline's context once it has enough results.
//
// The encoder and scorer are ports of a small JAX retrieval model: a
// gated running average over token embeddings (lax.scan), a multi-head
// dot-product relevance, and a novelty penalty against recently seen docs.
package main

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand"
	"strings"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocab    = 128
	dim      = 16
	maxLen   = 32 // every snippet is padded or truncated to this many tokens
	heads    = 4
	window   = 40 // recent documents remembered for the novelty penalty
	pageSize = 16 // results the sink waits for before cancelling
)

// EncParams are the encoder weights.
type EncParams struct {
	Emb  jit.Array // [vocab, dim]
	Proj jit.Array // [dim, dim]
	Gate jit.Array // [dim]
}

// Step is one position of the scanned sequence.
type Step struct {
	X jit.Array // [dim] token embedding
	M jit.Array // [] 1 for a real token, 0 for padding
}

// Encode turns padded token ids [maxLen] and their mask into a unit doc vector.
func Encode(p EncParams, ids, mask jit.Array) jit.Array {
	onehot := ids.Reshape(maxLen, 1).Eq(jit.Arange(vocab, jit.Int32)).Astype(jit.Float32)
	emb := onehot.MatMul(p.Emb) // [L, D]
	decay := p.Gate.Logistic()
	h, _ := jit.Scan(func(h jit.Array, s Step) (jit.Array, struct{}) {
		upd := s.X.MatMul(p.Proj).Tanh()
		next := h.Mul(decay).Add(upd.Mul(decay.Neg().Add(1)))
		h = jit.Where(s.M.Gt(0), next, h) // padding leaves the state alone
		return h, struct{}{}
	}, jit.Zeros(jit.Float32, dim), Step{X: emb, M: mask})
	return h.Mul(h.Mul(h).Sum().Add(1e-6).Rsqrt())
}

// Query is the standing query, encoded once, and its per-head weights.
type Query struct {
	Vec   jit.Array // [dim]
	HeadW jit.Array // [heads]
}

// Relevance scores one doc vector against the query head by head.
func Relevance(q Query, doc jit.Array) jit.Array {
	hd := dim / heads
	total := jit.Scalar(float32(0))
	for h := 0; h < heads; h++ {
		qs := q.Vec.Slice([]int{h * hd}, []int{(h + 1) * hd})
		ds := doc.Slice([]int{h * hd}, []int{(h + 1) * hd})
		w := q.HeadW.Slice([]int{h}, []int{h + 1}).Reshape()
		total = total.Add(qs.Mul(ds).Sum().Mul(w))
	}
	return total
}

// Novelty is 1 minus the largest cosine similarity between doc and the
// recent window [window, dim] (rows are unit vectors or zero).
func Novelty(recent, doc jit.Array) jit.Array {
	best := jit.Scalar(float32(-1))
	for i := 0; i < window; i++ { // want unrolledloop
		row := recent.Slice([]int{i, 0}, []int{i + 1, dim}).Reshape(dim)
		best = best.Max(row.Mul(doc).Sum())
	}
	return best.Neg().Add(1)
}

// FinalScore blends relevance and novelty.
func FinalScore(q Query, recent, doc jit.Array) (jit.Array, jit.Array) {
	rel := Relevance(q, doc)
	nov := Novelty(recent, doc)
	return rel.Add(nov.Mul(0.25)), nov
}

type tokenized struct {
	id        int
	ids, mask jit.Array
}

type encoded struct {
	id  int
	vec jit.Array
}

type scored struct {
	id         int
	score, nov float64
}

func tokenize(text string) ([]int32, []float32) {
	ids := make([]int32, maxLen)
	mask := make([]float32, maxLen)
	for i, w := range strings.Fields(strings.ToLower(text)) {
		if i == maxLen {
			break
		}
		h := fnv.New32a()
		h.Write([]byte(strings.Trim(w, ".,!?")))
		ids[i], mask[i] = int32(1+h.Sum32()%(vocab-1)), 1
	}
	return ids, mask
}

func randArray(r *rand.Rand, scale float64, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64() * scale)
	}
	return jit.FromSlice(v, shape...)
}

var words = strings.Fields(`market rally stocks bonds central bank rates inflation storm
flood coast league final goal striker election vote senate chip factory export
vaccine trial hospital drought harvest wheat prices energy grid solar wind`)

func snippets(r *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		k := 6 + r.Intn(30)
		ws := make([]string, k)
		for j := range ws {
			ws[j] = words[r.Intn(len(words))]
		}
		out[i] = strings.Join(ws, " ")
	}
	return out
}

func main() {
	r := rand.New(rand.NewSource(2024))
	enc := EncParams{Emb: randArray(r, 0.6, vocab, dim), Proj: randArray(r, 0.3, dim, dim), Gate: randArray(r, 0.5, dim)}
	encode := jit.Jit(Encode)
	score := jit.Jit(FinalScore)

	qids, qmask := tokenize("central bank rates inflation prices")
	query := Query{
		Vec:   encode.Call(enc, jit.FromSlice(qids), jit.FromSlice(qmask)),
		HeadW: jit.FromSlice([]float32{1, 0.8, 0.6, 0.4}),
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	docs := snippets(r, 24)

	toks := make(chan tokenized, 4)
	vecs := make(chan encoded, 4)
	out := make(chan scored, 4)
	var wg sync.WaitGroup
	wg.Add(3)

	go func() { // stage 1: tokenize on the host
		defer wg.Done()
		defer close(toks)
		for i, d := range docs {
			ids, mask := tokenize(d)
			select {
			case toks <- tokenized{i, jit.FromSlice(ids), jit.FromSlice(mask)}:
			case <-ctx.Done():
				return
			}
		}
	}()

	go func() { // stage 2: encode
		defer wg.Done()
		defer close(vecs)
		for t := range toks {
			v := encode.Call(enc, t.ids, t.mask)
			select {
			case vecs <- encoded{t.id, v}:
			case <-ctx.Done():
				return
			}
		}
	}()

	go func() { // stage 3: score against the query and the recent window
		defer wg.Done()
		defer close(out)
		recent := make([]float32, window*dim)
		next := 0
		for e := range vecs {
			s, nov := score.Call(query, jit.FromSlice(recent, window, dim), e.vec)
			copy(recent[next*dim:(next+1)*dim], e.vec.Float32s())
			next = (next + 1) % window
			res := scored{e.id, s.Item(), nov.Item()}
			select {
			case out <- res:
			case <-ctx.Done():
				return
			}
		}
	}()

	var results []scored
	for s := range out {
		results = append(results, s)
		if len(results) == pageSize {
			cancel() // enough for this page; stop the upstream stages
			break
		}
	}
	wg.Wait()

	best := results[0]
	for _, s := range results {
		fmt.Printf("doc %2d  score %+.4f  novelty %.4f  %.40s\n", s.id, s.score, s.nov, docs[s.id])
		if s.score > best.score {
			best = s
		}
	}
	fmt.Printf("top doc: %d (%.4f)\n", best.id, best.score)
	fmt.Printf("encode compiles=%d, score compiles=%d\n", encode.Stats().Compiles, score.Stats().Compiles)
}
