// Command embedserver serves sentence embeddings from a small hashed
// bag-of-words MLP encoder over HTTP. Clients POST batches of sentences as
// JSON; the server hashes the tokens into feature vectors, pads the batch
// to a bucket size, runs the encoder, L2-normalises the embeddings and
// answers with them. Afterwards an offline job ranks a few documents
// against a query with the same encoder.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"

	"corpus/nnlib"
	"corpus/seqdata"

	"github.com/jitlint/jitlint/jit"
)

const features = 32

var batchesEncoded atomic.Int64

type server struct {
	enc     nnlib.MLP
	mix     nnlib.Dense
	eps     float64
	buckets []int
	served  int
}

func featurize(sentence string) []float32 {
	v := make([]float32, features)
	for _, tok := range strings.Fields(strings.ToLower(sentence)) {
		h := fnv.New32a()
		h.Write([]byte(tok))
		v[h.Sum32()%features]++
	}
	return v
}

func batchArrays(sentences []string, rows int) (jit.Array, jit.Array) {
	flat := make([]float32, 0, rows*features)
	mask := make([]float32, rows)
	for i := 0; i < rows; i++ {
		if i < len(sentences) {
			flat = append(flat, featurize(sentences[i])...)
			mask[i] = 1
		} else {
			flat = append(flat, make([]float32, features)...)
		}
	}
	return jit.FromSlice(flat, rows, features), jit.FromSlice(mask, rows, 1)
}

func encodeBatch(m nnlib.MLP, mix nnlib.Dense, feats, mask jit.Array) jit.Array {
	batchesEncoded.Add(1) // want traceeffect
	h := nnlib.Forward(m, feats.Log1p())
	return nnlib.Residual(mix, h, 4).Mul(mask)
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct{ Sentences []string }
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rows := seqdata.Bucket(len(req.Sentences), s.buckets)
	feats, mask := batchArrays(req.Sentences, rows)
	emb := jit.Jit(encodeBatch).Call(s.enc, s.mix, feats, mask)
	normalize := jit.Jit(func(e jit.Array) jit.Array { // want staticargs
		return e.Div(e.Pow(2).Sum(1).Sqrt().Reshape(rows, 1).Add(s.eps))
	})
	out := normalize.Call(emb).Float32s()
	dim := len(out) / rows
	resp := make([][]float32, len(req.Sentences))
	for i := range resp {
		resp[i] = out[i*dim : (i+1)*dim]
	}
	s.served++
	log.Printf("served %d sentences (bucket %d)", len(req.Sentences), rows)
	json.NewEncoder(w).Encode(resp)
}

func scoreDocs(q, docs jit.Array, stopwords []string) jit.Array {
	scale := 1 / float64(1+len(stopwords))
	return docs.MatMul(q).Mul(scale)
}

func main() {
	log.SetFlags(0)
	r := nnlib.NewRand(5)
	s := &server{enc: nnlib.NewMLP(r, features, 24, 8), mix: nnlib.NewDense(r, 8, 8), eps: 1e-6, buckets: []int{4, 8}}
	ts := httptest.NewServer(s)
	defer ts.Close()

	requests := [][]string{
		{"the cat sat", "on the mat"},
		{"a b c", "d e f", "g h", "i j k", "l m n o", "p"},
		{"jit compiles once"},
		{"shapes matter", "so do static args", "pad your batches"},
		{"one", "two", "three", "four", "five"},
		{"hello world"},
		{"x", "y"},
		{"final request", "with", "seven", "short", "lines", "of", "text"},
	}
	for _, sentences := range requests {
		body, _ := json.Marshal(map[string][]string{"Sentences": sentences})
		resp, err := http.Post(ts.URL, "application/json", bytes.NewReader(body))
		if err != nil {
			panic(err)
		}
		var embs [][]float32
		json.NewDecoder(resp.Body).Decode(&embs)
		resp.Body.Close()
		fmt.Printf("%d embeddings, first starts %.3f\n", len(embs), embs[0][0])
	}
	fmt.Println("requests served:", s.served, "batches encoded:", batchesEncoded.Load())

	docs := []string{"the cat sat on the mat", "static args churn", "padding to buckets", "hello world again"}
	dfeats, _ := batchArrays(docs, 4)
	qfeats, _ := batchArrays([]string{"a cat on a mat"}, 1)
	enc := jit.Jit(nnlib.Forward)
	d := enc.Call(s.enc, dfeats)
	q := enc.Call(s.enc, qfeats).Reshape(8)
	rank := jit.Jit(scoreDocs, jit.StaticArgnums(2))
	fmt.Println("scores:", rank.Call(q, d, []string{"the", "a", "on"})) // want staticargs
}
