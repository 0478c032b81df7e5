// Command tokenembed is a small sentence-embedding service ported from a
// Flask + JAX prototype. Clients POST {"tokens": [...]} to /embed and get a
// mean-pooled embedding back; /embed/raw returns the per-token vectors, and
// /stats reports how often the model had to be compiled. The main function
// replays a recorded batch of requests against the mux with httptest.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocab = 64
	dim   = 8
)

type embedRequest struct {
	Tokens []int32 `json:"tokens"`
}

type embedResponse struct {
	Vector []float32 `json:"vector"`
	Rows   int       `json:"rows"`
}

type embedServer struct {
	table    jit.Array
	pooled   *jit.Func[func(jit.Array, jit.Array) jit.Array]
	raw      *jit.Func[func(jit.Array) jit.Array]
	buckets  []int
	served   int
	shapeLog []string
}

func newEmbedServer() *embedServer {
	s := &embedServer{buckets: []int{8, 16, 32}}
	w := make([]float32, vocab*dim)
	for i := range w {
		w[i] = float32((i*37)%19-9) / 10
	}
	s.table = jit.FromSlice(w, vocab, dim)
	s.pooled = jit.Jit(s.poolTokens)
	s.raw = jit.Jit(s.lookup)
	return s
}

// lookup turns ids [L] into vectors [L, dim] with a one-hot matmul.
func (s *embedServer) lookup(ids jit.Array) jit.Array {
	n := ids.Shape()[0]
	onehot := ids.Reshape(n, 1).Eq(jit.Arange(vocab, jit.Int32).Reshape(1, vocab))
	return onehot.Astype(jit.Float32).MatMul(s.table)
}

func (s *embedServer) poolTokens(ids, mask jit.Array) jit.Array {
	s.shapeLog = append(s.shapeLog, fmt.Sprint(ids.Shape())) // want traceeffect
	vecs := s.lookup(ids)
	weights := mask.Reshape(mask.Shape()[0], 1)
	total := vecs.Mul(weights).Sum(0)
	return total.Div(mask.Sum().Max(1))
}

func (s *embedServer) bucketFor(n int) int {
	for _, b := range s.buckets {
		if n <= b {
			return b
		}
	}
	return -1
}

func decode(w http.ResponseWriter, r *http.Request) (embedRequest, bool) {
	var req embedRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Tokens) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return req, false
	}
	return req, true
}

func (s *embedServer) handleEmbed(w http.ResponseWriter, r *http.Request) {
	req, ok := decode(w, r)
	if !ok {
		return
	}
	size := s.bucketFor(len(req.Tokens))
	if size < 0 {
		http.Error(w, "sequence too long", http.StatusRequestEntityTooLarge)
		return
	}
	ids, mask, err := jit.PadTo(jit.FromSlice(req.Tokens), size)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	maskF := mask.Astype(jit.Float32)
	out := s.pooled.Call(ids, maskF)
	s.served++
	json.NewEncoder(w).Encode(embedResponse{Vector: out.Float32s(), Rows: len(req.Tokens)})
}

func (s *embedServer) handleRaw(w http.ResponseWriter, r *http.Request) {
	req, ok := decode(w, r)
	if !ok {
		return
	}
	out := s.raw.Call(jit.FromSlice(req.Tokens)) // want shapechurn
	s.served++
	json.NewEncoder(w).Encode(embedResponse{Vector: out.Float32s(), Rows: out.Shape()[0]})
}

func (s *embedServer) handleStats(w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode(map[string]any{
		"served":        s.served,
		"pooled_traces": s.pooled.Stats().Traces,
		"raw_traces":    s.raw.Stats().Traces,
		"signatures":    s.pooled.Signatures(),
	})
}

func post(mux *http.ServeMux, path string, tokens []int32) *httptest.ResponseRecorder {
	body, _ := json.Marshal(embedRequest{Tokens: tokens})
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body)))
	return rec
}

func sentence(n, seed int) []int32 {
	toks := make([]int32, n)
	for i := range toks {
		toks[i] = int32((seed*7 + i*13) % vocab)
	}
	return toks
}

func main() {
	s := newEmbedServer()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /embed", s.handleEmbed)
	mux.HandleFunc("POST /embed/raw", s.handleRaw)
	mux.HandleFunc("GET /stats", s.handleStats)

	lengths := []int{3, 5, 12, 7, 2, 14, 6, 4, 11, 3}
	for i, n := range lengths {
		rec := post(mux, "/embed", sentence(n, i))
		var resp embedResponse
		json.Unmarshal(rec.Body.Bytes(), &resp)
		log.Printf("embed len=%d status=%d first=%.3f", n, rec.Code, resp.Vector[0])
	}
	for i, n := range []int{3, 5, 12, 7, 2} {
		rec := post(mux, "/embed/raw", sentence(n, i))
		log.Printf("raw len=%d status=%d", n, rec.Code)
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/stats", nil))
	fmt.Print(rec.Body.String())
}
