// Command inferserve is a small HTTP inference service for an intent
// classifier, ported from a Flask + jax.jit service. Requests are JSON,
// the handlers sit behind logging and API-key middleware, and the model is
// a bag-of-embeddings MLP compiled with jit.
//
// The service is exercised end to end with net/http/httptest.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocabSize = 64
	embedDim  = 16
	hiddenDim = 32
	numIntent = 4
	apiKey    = "s3cr3t-key"
)

var intents = []string{"billing", "shipping", "returns", "other"}

// Params are the classifier's weights (a pytree: every field is a leaf).
type Params struct {
	Emb    jit.Array // [vocab, embed]
	W1, B1 jit.Array // [embed, hidden], [hidden]
	W2, B2 jit.Array // [hidden, intents], [intents]
}

func randn(r *rand.Rand, scale float64, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(r.NormFloat64() * scale)
	}
	return jit.FromSlice(data, shape...)
}

func initParams(seed int64) Params {
	r := rand.New(rand.NewSource(seed))
	return Params{
		Emb: randn(r, 0.5, vocabSize, embedDim),
		W1:  randn(r, 0.25, embedDim, hiddenDim),
		B1:  jit.Zeros(jit.Float32, hiddenDim),
		W2:  randn(r, 0.25, hiddenDim, numIntent),
		B2:  jit.Zeros(jit.Float32, numIntent),
	}
}

// lookup embeds token ids of any leading shape with a one-hot matmul
// (jnp.take written the TPU-friendly way).
func lookup(emb, ids jit.Array) jit.Array {
	shape := append(ids.Shape(), 1)
	onehot := ids.Reshape(shape...).Eq(jit.Arange(vocabSize, jit.Int32)).Astype(jit.Float32)
	return onehot.MatMul(emb)
}

// Classify returns intent logits for a padded batch of token ids [B, L]
// with its 0/1 mask [B, L].
func Classify(p Params, ids, mask jit.Array) jit.Array {
	b, l := ids.Shape()[0], ids.Shape()[1]
	emb := lookup(p.Emb, ids)                              // [B, L, D]
	summed := emb.Mul(mask.Reshape(b, l, 1)).Sum(1)        // [B, D]
	pooled := summed.Div(mask.Sum(1).Max(1).Reshape(b, 1)) // masked mean
	h := jit.Relu(pooled.MatMul(p.W1).Add(p.B1))           // [B, H]
	return h.MatMul(p.W2).Add(p.B2)                        // [B, C]
}

// Embed returns the L2-normalised mean embedding of one unpadded sentence.
func Embed(emb, ids jit.Array) jit.Array {
	logger.Printf("embed: building sentence encoder for %d tokens", ids.Shape()[0]) // want traceeffect
	v := lookup(emb, ids).Mean(0)
	norm := v.Mul(v).Sum().Add(1e-6).Sqrt()
	jit.DebugPrint("embed: pre-normalisation norm %v", norm)
	return v.Div(norm)
}

// tokenize hashes lower-cased words into the vocabulary (id 0 is padding).
func tokenize(text string) []int32 {
	var ids []int32
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		h.Write([]byte(w))
		ids = append(ids, int32(1+h.Sum32()%(vocabSize-1)))
	}
	return ids
}

// bucket rounds n up to the next size in sizes (the last one caps it).
func bucket(n int, sizes []int) int {
	for _, s := range sizes {
		if n <= s {
			return s
		}
	}
	return sizes[len(sizes)-1]
}

var (
	batchBuckets = []int{4, 8}
	lenBuckets   = []int{8, 16}
	logger       = log.New(os.Stdout, "inferserve ", 0)
)

type metrics struct {
	requests, rejected, classified, embedded atomic.Int64
}

type server struct {
	params   Params
	classify *jit.Func[func(Params, jit.Array, jit.Array) jit.Array]
	embed    *jit.Func[func(jit.Array, jit.Array) jit.Array]
	m        metrics
}

func newServer() *server {
	return &server{
		params:   initParams(7),
		classify: jit.Jit(Classify),
		embed:    jit.Jit(Embed),
	}
}

type classifyReq struct {
	Texts []string `json:"texts"`
}
type classifyResp struct {
	Intents []string `json:"intents"`
}
type embedReq struct {
	Text string `json:"text"`
}
type embedResp struct {
	Vector []float32 `json:"vector"`
}

func (s *server) handleClassify(w http.ResponseWriter, r *http.Request) {
	var req classifyReq
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Texts) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	toks := make([][]int32, len(req.Texts))
	longest := 1
	for i, t := range req.Texts {
		toks[i] = tokenize(t)
		longest = max(longest, len(toks[i]))
	}
	b, l := bucket(len(toks), batchBuckets), bucket(longest, lenBuckets)
	ids := make([]int32, b*l)
	mask := make([]float32, b*l)
	for i := 0; i < len(toks) && i < b; i++ {
		for j := 0; j < len(toks[i]) && j < l; j++ {
			ids[i*l+j], mask[i*l+j] = toks[i][j], 1
		}
	}
	logits := s.classify.Call(s.params, jit.FromSlice(ids, b, l), jit.FromSlice(mask, b, l))
	flat := logits.Float32s()
	out := classifyResp{}
	for i := range req.Texts {
		best := 0
		for c := 1; c < numIntent; c++ {
			if flat[i*numIntent+c] > flat[i*numIntent+best] {
				best = c
			}
		}
		out.Intents = append(out.Intents, intents[best])
	}
	s.m.classified.Add(int64(len(req.Texts)))
	writeJSON(w, out)
}

func (s *server) handleEmbed(w http.ResponseWriter, r *http.Request) {
	var req embedReq
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	ids := tokenize(req.Text)
	if len(ids) == 0 {
		ids = []int32{0}
	}
	vec := s.embed.Call(s.params.Emb, jit.FromSlice(ids)) // want shapechurn
	s.m.embedded.Add(1)
	writeJSON(w, embedResp{Vector: vec.Float32s()})
}

func (s *server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	fmt.Fprintf(w, "requests %d\nrejected %d\nclassified %d\nembedded %d\n",
		s.m.requests.Load(), s.m.rejected.Load(), s.m.classified.Load(), s.m.embedded.Load())
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// withLogging logs one line per request and counts it.
func withLogging(m *metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.requests.Add(1)
		logger.Printf("%s %s", r.Method, r.URL.Path)
		next.ServeHTTP(w, r)
	})
}

// withAuth rejects requests without the service's API key.
func withAuth(m *metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-Key") != apiKey {
			m.rejected.Add(1)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST /v1/classify", withAuth(&s.m, http.HandlerFunc(s.handleClassify)))
	mux.Handle("POST /v1/embed", withAuth(&s.m, http.HandlerFunc(s.handleEmbed)))
	mux.HandleFunc("GET /metrics", s.handleMetrics)
	return withLogging(&s.m, mux)
}

func post(client *http.Client, url, key string, body any) (*http.Response, error) {
	buf, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(buf))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	return client.Do(req)
}

// must fails the smoke test on a transport error: httptest never drops requests.
func must(resp *http.Response, err error) *http.Response {
	if err != nil {
		panic(err)
	}
	return resp
}

func main() {
	s := newServer()
	ts := httptest.NewServer(s.routes())
	defer ts.Close()
	client := ts.Client()

	// A burst of classification requests from several clients at once.
	batches := [][]string{
		{"where is my parcel", "refund my order please"},
		{"invoice charged twice", "return the shoes", "hello there"},
		{"my package never arrived at the door", "cancel"},
		{"wrong size want to send it back", "card declined", "track shipment", "hi"},
		{"billing question", "late delivery again", "need a refund for the broken lamp", "thanks", "bye"},
		{"how do I return this"},
	}
	var wg sync.WaitGroup
	results := make([][]string, len(batches))
	for i, texts := range batches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := must(post(client, ts.URL+"/v1/classify", apiKey, classifyReq{Texts: texts}))
			defer resp.Body.Close()
			var out classifyResp
			json.NewDecoder(resp.Body).Decode(&out)
			results[i] = out.Intents
		}()
	}
	wg.Wait()
	for i, r := range results {
		fmt.Printf("batch %d -> %v\n", i, r)
	}

	// A client without a key is turned away by the middleware.
	if resp, err := post(client, ts.URL+"/v1/classify", "", classifyReq{Texts: []string{"hi"}}); err == nil {
		fmt.Println("no key:", resp.Status)
		resp.Body.Close()
	}

	// Sentence embeddings, one request per sentence.
	sentences := []string{
		"refund",
		"where is my parcel",
		"the courier left my package at the wrong house",
		"please cancel the subscription and refund the last two invoices",
		"hello",
		"I would like to exchange these shoes for a larger size if possible today",
	}
	for _, text := range sentences {
		resp := must(post(client, ts.URL+"/v1/embed", apiKey, embedReq{Text: text}))
		var out embedResp
		json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		fmt.Printf("embed %-12.12q dim=%d v[0]=%.4f\n", text, len(out.Vector), out.Vector[0])
	}

	resp, err := client.Get(ts.URL + "/metrics")
	if err == nil {
		var buf bytes.Buffer
		buf.ReadFrom(resp.Body)
		resp.Body.Close()
		fmt.Print(buf.String())
	}
	cs, es := s.classify.Stats(), s.embed.Stats()
	fmt.Printf("classify: compiles=%d hits=%d signatures=%d\n", cs.Compiles, cs.Hits, len(s.classify.Signatures()))
	fmt.Printf("embed:    compiles=%d hits=%d\n", es.Compiles, es.Hits)
}
