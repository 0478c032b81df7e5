// Command scoresvc serves a small tabular classifier over HTTP. Each head of
// the model (logits, class probabilities, the penultimate embedding) is a
// jitted function in a dispatch table built at start-up; requests are padded
// to a few batch buckets so each head compiles once per bucket. A calibrated
// endpoint divides the logits by a per-request temperature, a top-k endpoint
// keeps the k best classes, and a legacy endpoint is kept for old clients.
// The client side replays a fixed script of requests against an
// httptest.Server.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"

	"corpus/nnkit"
	"corpus/seqkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	numFeatures = 6
	numClasses  = 4
)

// buckets are the padded batch sizes.
var buckets = []int{8, 16, 32}

// Model is the classifier's weights: an MLP trunk and a linear output.
type Model struct {
	Trunk nnkit.Stack[nnkit.Dense]
	Out   nnkit.Dense
}

func newModel(seed int64) (Model, error) {
	trunk, err := nnkit.NewBuilder(numFeatures, seed).Dense(32, "relu").Dense(16, "tanh").Build()
	if err != nil {
		return Model{}, err
	}
	out, err := nnkit.NewBuilder(16, seed+1).Dense(numClasses, "identity").Build()
	if err != nil {
		return Model{}, err
	}
	return Model{Trunk: trunk, Out: out.Layers[0]}, nil
}

// Embed is the trunk's output.
func Embed(m Model, x jit.Array) jit.Array { return m.Trunk.Apply(x) }

// Logits are the unnormalised class scores.
func Logits(m Model, x jit.Array) jit.Array { return m.Out.Apply(Embed(m, x)) }

// rowSoftmax normalises each row of a [batch, classes] array.
func rowSoftmax(z jit.Array) jit.Array {
	e := z.Sub(z.MaxReduce(1).Reshape(-1, 1)).Exp()
	return e.Div(e.Sum(1).Reshape(-1, 1))
}

// Probs are the class probabilities.
func Probs(m Model, x jit.Array) jit.Array { return rowSoftmax(Logits(m, x)) }

// TopClasses keeps the k largest probabilities of each row and renormalises.
func TopClasses(m Model, x jit.Array, k int) jit.Array {
	keep := jit.Vmap(func(z jit.Array) jit.Array { return seqkit.TopK(z, k) })
	return rowSoftmax(keep(Logits(m, x)))
}

type headFunc = *jit.Func[func(Model, jit.Array) jit.Array]

type request struct {
	Rows        [][]float32 `json:"rows"`
	Temperature float64     `json:"temperature,omitempty"`
}

type response struct {
	Rows   [][]float32 `json:"rows"`
	Bucket int         `json:"bucket"`
}

// server holds the model and the jitted heads.
type server struct {
	model  Model
	heads  map[string]headFunc
	topk   *jit.Func[func(Model, jit.Array, int) jit.Array]
	served map[string]int
}

func newServer(m Model) *server {
	return &server{
		model: m,
		heads: map[string]headFunc{
			"logits": jit.Jit(Logits),
			"probs":  jit.Jit(Probs),
			"embed":  jit.Jit(Embed),
		},
		topk:   jit.Jit(TopClasses, jit.StaticArgnums(2)),
		served: map[string]int{},
	}
}

// bucketFor returns the smallest bucket that holds n rows, or 0.
func bucketFor(n int) int {
	i := sort.SearchInts(buckets, n)
	if i == len(buckets) {
		return 0
	}
	return buckets[i]
}

// toBatch packs rows into a [size, numFeatures] array, zero rows after len(rows).
func toBatch(rows [][]float32, size int) jit.Array {
	flat := make([]float32, size*numFeatures)
	for i, r := range rows {
		copy(flat[i*numFeatures:], r)
	}
	return jit.FromSlice(flat, size, numFeatures)
}

// fromBatch unpacks the first n rows of a 2-D result.
func fromBatch(y jit.Array, n int) [][]float32 {
	width := y.Shape()[1]
	flat := y.Float32s()
	out := make([][]float32, n)
	for i := range out {
		out[i] = flat[i*width : (i+1)*width]
	}
	return out
}

func decode(w http.ResponseWriter, r *http.Request) (request, int, bool) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Rows) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return req, 0, false
	}
	size := bucketFor(len(req.Rows))
	if size == 0 {
		http.Error(w, "batch too large", http.StatusRequestEntityTooLarge)
		return req, 0, false
	}
	return req, size, true
}

func reply(w http.ResponseWriter, y jit.Array, n, bucket int) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(response{Rows: fromBatch(y, n), Bucket: bucket})
}

// predict dispatches /predict?head=NAME to the head's jitted function.
func (s *server) predict(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("head")
	head, ok := s.heads[name]
	if !ok {
		http.Error(w, "unknown head "+strconv.Quote(name), http.StatusNotFound)
		return
	}
	req, size, ok := decode(w, r)
	if !ok {
		return
	}
	s.served[name]++
	y := head.Call(s.model, toBatch(req.Rows, size))
	reply(w, y, len(req.Rows), size)
}

// calibrated serves temperature-scaled probabilities.
func (s *server) calibrated(w http.ResponseWriter, r *http.Request) {
	req, size, ok := decode(w, r)
	if !ok {
		return
	}
	temp := req.Temperature
	scaled := jit.Jit(func(m Model, x jit.Array) jit.Array { // want staticargs
		return rowSoftmax(Logits(m, x).Div(temp))
	})
	s.served["calibrated"]++
	reply(w, scaled.Call(s.model, toBatch(req.Rows, size)), len(req.Rows), size)
}

// top serves /top?k=K: the k most likely classes, renormalised.
func (s *server) top(w http.ResponseWriter, r *http.Request) {
	k, err := strconv.Atoi(r.URL.Query().Get("k"))
	if err != nil || k < 1 || k > numClasses {
		http.Error(w, "bad k", http.StatusBadRequest)
		return
	}
	req, size, ok := decode(w, r)
	if !ok {
		return
	}
	s.served["top"]++
	reply(w, s.topk.Call(s.model, toBatch(req.Rows, size), k), len(req.Rows), size)
}

// legacy is the v0 endpoint: probabilities for exactly the rows sent.
func (s *server) legacy(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.served["legacy"]++
	n := len(req.Rows)
	y := s.heads["probs"].Call(s.model, toBatch(req.Rows, n)) // want shapechurn
	reply(w, y, n, n)
}

// makeRows draws n deterministic feature rows.
func makeRows(seed, n int) [][]float32 {
	rows := make([][]float32, n)
	for i := range rows {
		rows[i] = make([]float32, numFeatures)
		for j := range rows[i] {
			v := float32((seed*31+i*7+j*13)%17)/8 - 1
			rows[i][j] = v
		}
	}
	return rows
}

func post(url string, req request) (response, error) {
	body, _ := json.Marshal(req)
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return response{}, fmt.Errorf("%s: %s", url, resp.Status)
	}
	var out response
	err = json.NewDecoder(resp.Body).Decode(&out)
	return out, err
}

func main() {
	model, err := newModel(42)
	if err != nil {
		panic(err)
	}
	s := newServer(model)
	mux := http.NewServeMux()
	mux.HandleFunc("/predict", s.predict)
	mux.HandleFunc("/calibrated", s.calibrated)
	mux.HandleFunc("/top", s.top)
	mux.HandleFunc("/v0/probs", s.legacy)
	ts := httptest.NewServer(mux)
	defer ts.Close()

	script := []struct {
		path string
		n    int
		temp float64
	}{
		{"/predict?head=probs", 3, 0}, {"/predict?head=logits", 5, 0},
		{"/predict?head=probs", 12, 0}, {"/predict?head=embed", 2, 0},
		{"/predict?head=probs", 7, 0}, {"/predict?head=logits", 4, 0},
		{"/predict?head=probs", 1, 0}, {"/predict?head=logits", 14, 0},
		{"/predict?head=probs", 6, 0}, {"/predict?head=embed", 8, 0},
		{"/predict?head=probs", 11, 0}, {"/predict?head=logits", 3, 0},
		{"/predict?head=softmax", 3, 0}, {"/predict?head=probs", 40, 0},
		{"/calibrated", 4, 0.5}, {"/calibrated", 6, 1.0}, {"/calibrated", 3, 1.5},
		{"/calibrated", 5, 2.0}, {"/calibrated", 2, 1.0},
		{"/top?k=1", 5, 0}, {"/top?k=2", 6, 0}, {"/top?k=1", 3, 0},
		{"/top?k=2", 7, 0}, {"/top?k=1", 2, 0}, {"/top?k=9", 2, 0},
		{"/v0/probs", 3, 0}, {"/v0/probs", 5, 0}, {"/v0/probs", 6, 0},
		{"/v0/probs", 9, 0}, {"/v0/probs", 11, 0},
	}
	for i, step := range script {
		out, err := post(ts.URL+step.path, request{Rows: makeRows(i, step.n), Temperature: step.temp})
		if err != nil {
			fmt.Printf("%-22s n=%-2d error: %v\n", step.path, step.n, err)
			continue
		}
		first := out.Rows[0]
		if len(first) > numClasses {
			first = first[:numClasses]
		}
		fmt.Printf("%-22s n=%-2d bucket=%-2d row0=%.3f\n", step.path, step.n, out.Bucket, first)
	}

	fmt.Println("compiled signatures per head:")
	for _, name := range []string{"embed", "logits", "probs"} {
		f := s.heads[name]
		st := f.Stats()
		fmt.Printf("  %-7s compiles=%d hits=%d signatures=%d\n", name, st.Compiles, st.Hits, len(f.Signatures()))
	}
	fmt.Printf("  top     compiles=%d hits=%d\n", s.topk.Stats().Compiles, s.topk.Stats().Hits)
	names := make([]string, 0, len(s.served))
	for name := range s.served {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Printf("  served %-10s %d\n", name, s.served[name])
	}
}
