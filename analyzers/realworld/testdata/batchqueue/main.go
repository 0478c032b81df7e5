// Command batchqueue is a dynamic-batching scoring server. Each HTTP request
// carries a few features as JSON; the handler enqueues it, a batcher
// goroutine groups queued requests into batches of up to eight rows padded to
// exactly eight, and a pool of workers scores the batches with a jitted
// two-layer model followed by a polynomial calibration curve fitted offline.
// Cancelling the context shuts the batcher and the workers down.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"time"

	"github.com/jitlint/jitlint/jit"
)

const (
	batchRows = 8
	features  = 6
	hidden    = 4
	calDegree = 40
)

type job struct {
	feats []float32
	reply chan float32
}

type scorer struct {
	layers     []jit.Array
	coef       []float64
	metrics    chan string
	compiledAt time.Time
	score      *jit.Func[func(jit.Array) jit.Array]
}

func newScorer() *scorer {
	sc := &scorer{metrics: make(chan string, 256)}
	shapes := [][2]int{{features, hidden}, {hidden, 1}}
	for li, sh := range shapes {
		w := make([]float32, sh[0]*sh[1])
		for i := range w {
			w[i] = float32(math.Sin(float64(i+li*11))) / 2
		}
		sc.layers = append(sc.layers, jit.FromSlice(w, sh[0], sh[1]))
	}
	sc.coef = make([]float64, calDegree+1)
	for k := range sc.coef {
		sc.coef[k] = math.Pow(-1, float64(k)) / float64(2*k+1) / math.Pow(3, float64(k)/4)
	}
	sc.score = jit.Jit(sc.forward)
	return sc
}

func (sc *scorer) forward(x jit.Array) jit.Array {
	h := x
	for i, w := range sc.layers {
		h = h.MatMul(w)
		if i < len(sc.layers)-1 {
			h = h.Tanh()
		}
	}
	z := h.Reshape(batchRows).Tanh()
	p := jit.Full(sc.coef[calDegree], jit.Float32, batchRows)
	for k := calDegree - 1; k >= 0; k-- { // want unrolledloop
		p = p.Mul(z).Add(sc.coef[k])
	}
	sc.compiledAt = time.Now() // want traceeffect
	return p.Logistic()
}

func (sc *scorer) worker(ctx context.Context, batches <-chan []job, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case b := <-batches:
			flat := make([]float32, batchRows*features)
			for r, j := range b {
				copy(flat[r*features:], j.feats)
			}
			out := sc.score.Call(jit.FromSlice(flat, batchRows, features)).Float32s()
			sc.metrics <- fmt.Sprintf("batch of %d", len(b))
			for r, j := range b {
				j.reply <- out[r]
			}
		}
	}
}

func batcher(ctx context.Context, queue <-chan job, batches chan<- []job) {
	for {
		var first job
		select {
		case <-ctx.Done():
			return
		case first = <-queue:
		}
		b := []job{first}
	fill:
		for len(b) < batchRows {
			select {
			case j := <-queue:
				b = append(b, j)
			default:
				break fill
			}
		}
		batches <- b
	}
}

func scoreHandler(queue chan<- job) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Features []float32 `json:"features"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Features) > features {
			http.Error(w, "bad features", http.StatusBadRequest)
			return
		}
		feats := make([]float32, features)
		copy(feats, req.Features)
		j := job{feats: feats, reply: make(chan float32, 1)}
		queue <- j
		json.NewEncoder(w).Encode(map[string]float32{"score": <-j.reply})
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sc := newScorer()
	queue := make(chan job, 64)
	batches := make(chan []job)
	var workers sync.WaitGroup
	for range 3 {
		workers.Add(1)
		go sc.worker(ctx, batches, &workers)
	}
	go batcher(ctx, queue, batches)

	mux := http.NewServeMux()
	mux.Handle("POST /score", scoreHandler(queue))

	scores := make([]string, 40)
	var clients sync.WaitGroup
	for i := range scores {
		clients.Add(1)
		go func() {
			defer clients.Done()
			feats := make([]float32, 3+i%4)
			for k := range feats {
				feats[k] = float32((i+k)%5) / 4
			}
			body, _ := json.Marshal(map[string][]float32{"features": feats})
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/score", bytes.NewReader(body)))
			scores[i] = fmt.Sprintf("req %02d -> %s", i, bytes.TrimSpace(rec.Body.Bytes()))
		}()
	}
	clients.Wait()
	cancel()
	workers.Wait()
	close(sc.metrics)
	batchesSeen := 0
	for m := range sc.metrics {
		if len(m) > 5 && m[:5] == "batch" {
			batchesSeen++
		}
	}
	sort.Strings(scores)
	for _, s := range scores[:5] {
		fmt.Println(s)
	}
	st := sc.score.Stats()
	fmt.Printf("batches=%d traces=%d hits=%d compiled=%v\n", batchesSeen, st.Traces, st.Hits, !sc.compiledAt.IsZero())
}
