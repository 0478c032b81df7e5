// Command retrieval is a small embedding and retrieval service: a hashed
// bag-of-words encoder (mean pooling over a padded token window, a projection
// and L2 normalisation, ported from a Flax module) embeds a document set at
// start-up, and a JSON API over net/http answers /embed, /search and /similar.
// main drives it through httptest.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const (
	HashBuckets = 256
	EmbDim      = 64
	OutDim      = 32
	MaxTokens   = 16
	MaxBatch    = 8
)

var documents = []string{
	"how to pad sequences to a fixed length before batching",
	"a key value cache makes autoregressive decoding fast",
	"beam search keeps the best partial hypotheses at each step",
	"top p sampling keeps the smallest set of tokens with enough mass",
	"temperature scales the logits before the softmax",
	"speculative decoding uses a draft model and a target model",
	"bucketing requests by length reduces padding waste",
	"embeddings are normalised so that a dot product is a cosine",
	"a tokenizer splits text into pieces and maps them to ids",
	"prompt caching reuses the work done for a shared prefix",
	"the softmax of the scores gives attention weights",
	"greedy decoding picks the most likely token every step",
}

// Encoder parameters.
type Encoder struct {
	Table jit.Array // [HashBuckets, EmbDim]
	Proj  jit.Array // [EmbDim, OutDim]
}

// stopwords get a small pooling weight (a crude idf).
var stopwords = map[string]bool{"a": true, "the": true, "to": true, "and": true, "of": true,
	"with": true, "for": true, "from": true, "into": true, "at": true, "so": true, "that": true,
	"is": true, "are": true, "by": true, "how": true, "why": true, "does": true, "each": true}

// hashTokens returns the hashed ids of text's words and their pooling
// weights (0 for padding).
func hashTokens(text string) ([]int32, []float32) {
	ids := make([]int32, MaxTokens)
	mask := make([]float32, MaxTokens)
	for i, w := range strings.Fields(strings.ToLower(text)) {
		if i == MaxTokens {
			break
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		ids[i] = int32(h.Sum32() % HashBuckets)
		mask[i] = 1
		if stopwords[w] {
			mask[i] = 0.1
		}
	}
	return ids, mask
}

// EmbedOne embeds one padded token window: masked mean of the word vectors,
// projected and normalised.
func EmbedOne(enc Encoder, ids, mask jit.Array) jit.Array {
	oh := ids.Reshape(MaxTokens, 1).Eq(jit.Arange(HashBuckets, jit.Int32)).Astype(jit.Float32)
	vecs := oh.MatMul(enc.Table)
	pooled := mask.MatMul(vecs).Div(mask.Sum().Max(1))
	z := pooled.MatMul(enc.Proj)
	return z.Mul(z.Mul(z).Sum().Add(1e-12).Rsqrt())
}

// TopK returns the scores and indices of the k best documents for query q,
// by k rounds of argmax-and-mask (k is small and static).
func TopK(index, q jit.Array, k int) (jit.Array, jit.Array) {
	n := index.Shape()[0]
	scores := index.MatMul(q)
	pos := jit.Arange(n, jit.Int32)
	var best, which []jit.Array
	for i := 0; i < k; i++ {
		m := scores.MaxReduce()
		at := jit.Where(scores.Eq(m), pos, n).MinReduce()
		best = append(best, m.Reshape(1))
		which = append(which, at.Reshape(1))
		scores = jit.Where(pos.Eq(at), -2, scores)
	}
	return jit.Concatenate(0, best...), jit.Concatenate(0, which...)
}

// CosineScores scores every document against q.
func CosineScores(index, q jit.Array) jit.Array { return index.MatMul(q) }

type server struct {
	enc      Encoder
	index    jit.Array
	embedOne *jit.Func[func(Encoder, jit.Array, jit.Array) jit.Array]
	embedB   *jit.Func[func(Encoder, jit.Array, jit.Array) jit.Array]
	topk     *jit.Func[func(jit.Array, jit.Array, int) (jit.Array, jit.Array)]
}

func newServer(rng *rand.Rand) *server {
	mat := func(r, c int, s float64) jit.Array {
		w := make([]float32, r*c)
		for i := range w {
			w[i] = float32(rng.NormFloat64() * s)
		}
		return jit.FromSlice(w, r, c)
	}
	s := &server{enc: Encoder{Table: mat(HashBuckets, EmbDim, 1), Proj: mat(EmbDim, OutDim, 0.125)}}
	s.embedOne = jit.Jit(EmbedOne)
	s.embedB = jit.Jit(jit.Vmap(EmbedOne, jit.InAxes(jit.NotMapped, 0, 0)))
	s.topk = jit.Jit(TopK, jit.StaticArgnums(2))
	s.index = s.embedTexts(documents)
	return s
}

// embedTexts embeds texts in batches padded to MaxBatch rows.
func (s *server) embedTexts(texts []string) jit.Array {
	var parts []jit.Array
	for start := 0; start < len(texts); start += MaxBatch {
		end := min(start+MaxBatch, len(texts))
		ids := make([]int32, 0, MaxBatch*MaxTokens)
		mask := make([]float32, 0, MaxBatch*MaxTokens)
		for _, t := range texts[start:end] {
			i, m := hashTokens(t)
			ids, mask = append(ids, i...), append(mask, m...)
		}
		ids = append(ids, make([]int32, (MaxBatch-(end-start))*MaxTokens)...)
		mask = append(mask, make([]float32, (MaxBatch-(end-start))*MaxTokens)...)
		out := s.embedB.Call(s.enc, jit.FromSlice(ids, MaxBatch, MaxTokens), jit.FromSlice(mask, MaxBatch, MaxTokens))
		parts = append(parts, out.Slice([]int{0, 0}, []int{end - start, OutDim}))
	}
	return jit.Concatenate(0, parts...)
}

func (s *server) query(text string) jit.Array {
	ids, mask := hashTokens(text)
	return s.embedOne.Call(s.enc, jit.FromSlice(ids), jit.FromSlice(mask))
}

type embedRequest struct {
	Texts []string `json:"texts"`
}

type searchRequest struct {
	Query     string  `json:"query"`
	K         int     `json:"k"`
	Threshold float64 `json:"threshold,omitempty"`
}

type hit struct {
	Doc   int     `json:"doc"`
	Score float32 `json:"score"`
}

func (s *server) handleEmbed(w http.ResponseWriter, r *http.Request) {
	var req embedRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	emb := s.embedTexts(req.Texts)
	rows := make([][]float32, len(req.Texts))
	flat := emb.Float32s()
	for i := range rows {
		rows[i] = flat[i*OutDim : (i+1)*OutDim]
	}
	json.NewEncoder(w).Encode(map[string]any{"embeddings": rows})
}

func (s *server) handleSearch(w http.ResponseWriter, r *http.Request) {
	var req searchRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.K < 1 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	scores, idx := s.topk.Call(s.index, s.query(req.Query), req.K)
	hits := make([]hit, req.K)
	for i, d := range idx.Int32s() {
		hits[i] = hit{Doc: int(d), Score: scores.Float32s()[i]}
	}
	json.NewEncoder(w).Encode(hits)
}

// handleSimilar returns every document whose cosine with the query is above
// the request's threshold, best first.
func (s *server) handleSimilar(w http.ResponseWriter, r *http.Request) {
	var req searchRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	above := jit.Jit(func(index, q jit.Array) jit.Array { // want staticargs
		sims := index.MatMul(q)
		return jit.Where(sims.Gt(req.Threshold), sims, -1)
	})
	sims := above.Call(s.index, s.query(req.Query)).Float32s()
	// The unthresholded scores, for the log line.
	all := jit.Jit(CosineScores).Call(s.index, s.query(req.Query)).Float32s()
	var hits []hit
	for d, v := range sims {
		if v >= 0 {
			hits = append(hits, hit{Doc: d, Score: v})
		}
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	best := 0
	for d := range all {
		if all[d] > all[best] {
			best = d
		}
	}
	w.Header().Set("X-Best-Doc", fmt.Sprint(best))
	json.NewEncoder(w).Encode(hits)
}

func post(url string, body any, out any) http.Header {
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		panic(fmt.Sprintf("%s: %s", url, resp.Status))
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		panic(err)
	}
	return resp.Header
}

func main() {
	s := newServer(rand.New(rand.NewSource(3)))
	mux := http.NewServeMux()
	mux.HandleFunc("POST /embed", s.handleEmbed)
	mux.HandleFunc("POST /search", s.handleSearch)
	mux.HandleFunc("POST /similar", s.handleSimilar)
	ts := httptest.NewServer(mux)
	defer ts.Close()

	var emb struct{ Embeddings [][]float32 }
	post(ts.URL+"/embed", embedRequest{Texts: []string{"padding and batching", "kv cache decoding", "nucleus sampling"}}, &emb)
	fmt.Printf("/embed: %d vectors of dim %d\n", len(emb.Embeddings), len(emb.Embeddings[0]))

	queries := []string{
		"why does padding to fixed lengths help batching",
		"sampling with temperature and top p",
		"draft model for faster decoding",
		"cache the shared prompt prefix",
		"attention weights from softmax scores",
		"split text into token ids",
	}
	for i, q := range queries {
		var hits []hit
		post(ts.URL+"/search", searchRequest{Query: q, K: 3 + 2*(i%2)}, &hits)
		fmt.Printf("/search %-48q -> doc %2d (%.3f) of %d hits\n", q, hits[0].Doc, hits[0].Score, len(hits))
	}
	for _, q := range queries {
		var hits []hit
		h := post(ts.URL+"/similar", searchRequest{Query: q, Threshold: 0.5}, &hits)
		fmt.Printf("/similar %-47q -> %d docs above 0.5, best %s\n", q, len(hits), h.Get("X-Best-Doc"))
	}
	fmt.Printf("compiles: embedOne=%d embedBatch=%d topk=%d (signatures %d)\n",
		s.embedOne.Stats().Compiles, s.embedB.Stats().Compiles, s.topk.Stats().Compiles, len(s.topk.Signatures()))
}
