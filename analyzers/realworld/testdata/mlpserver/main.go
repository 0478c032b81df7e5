// Command infer_server simulates a small inference server: requests with a
// variable number of rows arrive on a channel and are scored by a jitted MLP.
package main

import (
	"fmt"
	"log"
	"math"
	"os"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

const (
	featureDim = 8
	hiddenDim  = 16
)

// Request is one scoring request: a batch of feature rows.
type Request struct {
	ID   int
	Rows [][]float32
}

// Response carries the scores back to the client.
type Response struct {
	ID     int
	Scores []float32
}

// Forward is the unpadded model: one compiled program per batch size.
func Forward(w1, b1, w2, x jit.Array) jit.Array {
	log.Printf("compiling Forward for batch shape %v", x.Shape()) // want traceeffect
	h := x.MatMul(w1).Add(b1).Tanh()
	return h.MatMul(w2).Logistic()
}

// ForwardMasked is the padded model: padding rows are zeroed by the mask.
func ForwardMasked(w1, b1, w2, x, mask jit.Array) jit.Array {
	if x.Ndim() == 1 {
		x = x.Reshape(1, -1)
	}
	h := x.MatMul(w1).Add(b1).Tanh()
	out := h.MatMul(w2).Logistic()
	return out.Mul(mask.Reshape(-1, 1))
}

type server struct {
	w1, b1, w2 jit.Array
	plain      *jit.Func[func(w1, b1, w2, x jit.Array) jit.Array]
	padded     *jit.Func[func(w1, b1, w2, x, mask jit.Array) jit.Array]
}

func newServer() *server {
	w1 := make([]float32, featureDim*hiddenDim)
	for i := range w1 {
		w1[i] = float32(math.Sin(float64(i))) * 0.3
	}
	b1 := make([]float32, hiddenDim)
	w2 := make([]float32, hiddenDim)
	for i := range w2 {
		w2[i] = float32(math.Cos(float64(i))) * 0.5
	}
	return &server{
		w1:     jit.FromSlice(w1, featureDim, hiddenDim),
		b1:     jit.FromSlice(b1, hiddenDim),
		w2:     jit.FromSlice(w2, hiddenDim, 1),
		plain:  jit.Jit(Forward),
		padded: jit.Jit(ForwardMasked),
	}
}

func flatten(rows [][]float32, padTo int) ([]float32, []float32) {
	n := len(rows)
	if padTo < n {
		padTo = n
	}
	flat := make([]float32, padTo*featureDim)
	mask := make([]float32, padTo)
	for i, r := range rows {
		copy(flat[i*featureDim:], r)
		mask[i] = 1
	}
	return flat, mask
}

// bucket rounds a batch size up to one of two compiled sizes.
func bucket(n int) int {
	if n <= 16 {
		return 16
	}
	return 64
}

// handleNaive scores the request at its own size.
func (s *server) handleNaive(req Request) Response {
	flat, _ := flatten(req.Rows, 0)
	x := jit.FromSlice(flat, len(req.Rows), featureDim)
	out := s.plain.Call(s.w1, s.b1, s.w2, x) // want shapechurn
	return Response{ID: req.ID, Scores: out.Float32s()}
}

// handleBucketed pads the request to its bucket first.
func (s *server) handleBucketed(req Request) Response {
	n := len(req.Rows)
	b := bucket(n)
	flat, mask := flatten(req.Rows, b)
	x := jit.FromSlice(flat, b, featureDim)
	out := s.padded.Call(s.w1, s.b1, s.w2, x, jit.FromSlice(mask))
	return Response{ID: req.ID, Scores: out.Float32s()[:n]}
}

func makeRequests(sizes []int) <-chan Request {
	ch := make(chan Request)
	go func() {
		defer close(ch)
		for id, n := range sizes {
			rows := make([][]float32, n)
			for i := range rows {
				rows[i] = make([]float32, featureDim)
				for j := range rows[i] {
					rows[i][j] = float32((id+i+j)%7) / 7
				}
			}
			ch <- Request{ID: id, Rows: rows}
		}
	}()
	return ch
}

func main() {
	log.SetOutput(os.Stdout)
	s := newServer()
	sizes := []int{3, 7, 12, 5, 30, 9, 41, 2, 17, 11}

	// Naive serving: every new request size compiles again.
	var naive []Response
	for req := range makeRequests(sizes) {
		naive = append(naive, s.handleNaive(req))
	}

	// Bucketed serving from two worker goroutines.
	reqs := makeRequests(sizes)
	resps := make(chan Response, len(sizes))
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for req := range reqs {
				resps <- s.handleBucketed(req)
			}
		}()
	}
	wg.Wait()
	close(resps)
	got := map[int]Response{}
	for r := range resps {
		got[r.ID] = r
	}
	maxDiff := 0.0
	for _, r := range naive {
		for i, v := range r.Scores {
			maxDiff = math.Max(maxDiff, math.Abs(float64(v-got[r.ID].Scores[i])))
		}
	}
	fmt.Printf("served %d requests, max |naive-bucketed| = %.2g\n", len(naive), maxDiff)
	fmt.Printf("naive compiles=%d bucketed compiles=%d\n", s.plain.Stats().Compiles, s.padded.Stats().Compiles)
}
