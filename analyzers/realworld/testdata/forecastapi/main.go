// Command forecastapi serves a small HTTP forecasting endpoint. Clients POST a
// JSON series of recent demand readings; the handler normalizes it, runs an
// exponential-smoothing forecaster compiled with jit and answers with the
// next value and the series' anomaly score. Requests are simulated with
// net/http/httptest.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"math"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/jitlint/jitlint/jit"
)

const horizon = 96

type request struct {
	Series []float32 `json:"series"`
}

type response struct {
	Next    float64 `json:"next"`
	Anomaly float64 `json:"anomaly"`
}

// forecast smooths the masked series and returns the last level and the
// largest standardized residual.
func forecast(x, mask jit.Array) (jit.Array, jit.Array) {
	n := mask.Sum()
	mean := x.Mul(mask).Sum().Div(n)
	sd := x.Sub(mean).Mul(mask).Pow(2).Sum().Div(n).Sqrt().Add(1e-6)
	z := x.Sub(mean).Div(sd).Mul(mask)
	w := jit.Arange(x.Shape()[0], jit.Float32).Mul(mask).Mul(0.05).Exp().Mul(mask)
	level := z.Mul(w).Sum().Div(w.Sum())
	return level.Mul(sd).Add(mean), z.Abs().MaxReduce()
}

type server struct {
	model  *jit.Func[func(jit.Array, jit.Array) (jit.Array, jit.Array)]
	batch  *jit.Func[func(jit.Array, jit.Array) (jit.Array, jit.Array)]
	served int
	width  int
}

const batchRows = 4

// bucket rounds a length up to the next power of two, at least 16.
func bucket(n int) int {
	b := 16
	for b < n {
		b *= 2
	}
	return b
}

// handleBatch forecasts up to batchRows series at once, padded to a common
// bucketed length.
func (s *server) handleBatch(w http.ResponseWriter, r *http.Request) {
	var reqs []request
	if err := json.NewDecoder(r.Body).Decode(&reqs); err != nil || len(reqs) == 0 || len(reqs) > batchRows {
		http.Error(w, "bad batch", http.StatusBadRequest)
		return
	}
	longest := 0
	for _, q := range reqs {
		longest = max(longest, len(q.Series))
	}
	L := bucket(longest)
	xs := make([]float32, batchRows*L)
	ms := make([]float32, batchRows*L)
	for i := 0; i < batchRows; i++ {
		src := reqs[i%len(reqs)].Series
		copy(xs[i*L:], src)
		for j := range src {
			ms[i*L+j] = 1
		}
	}
	next, anom := s.batch.Call(jit.FromSlice(xs, batchRows, L), jit.FromSlice(ms, batchRows, L))
	out := make([]response, len(reqs))
	nv, av := next.Float32s(), anom.Float32s()
	for i := range out {
		out[i] = response{Next: float64(nv[i]), Anomaly: float64(av[i])}
	}
	json.NewEncoder(w).Encode(out)
}

func (s *server) handle(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Series) == 0 || len(req.Series) > horizon {
		http.Error(w, "bad series", http.StatusBadRequest)
		return
	}
	T := len(req.Series)
	buf := append([]float32{}, req.Series...)
	buf = append(buf, make([]float32, horizon-T)...)
	mask := make([]float32, horizon)
	for i := 0; i < T; i++ {
		mask[i] = 1
	}
	next, anom := s.model.Call(jit.FromSlice(buf), jit.FromSlice(mask))
	s.served++
	log.Printf("served request %d: %d readings", s.served, T)
	json.NewEncoder(w).Encode(response{Next: next.Item(), Anomaly: anom.Item()})
}

// handleRaw is the legacy endpoint, kept for old clients that send no mask.
func (s *server) handleRaw(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Series) == 0 {
		http.Error(w, "bad series", http.StatusBadRequest)
		return
	}
	x := jit.FromSlice(req.Series)
	next, anom := s.model.Call(x, jit.Ones(jit.Float32, len(req.Series))) // want shapechurn
	json.NewEncoder(w).Encode(response{Next: next.Item(), Anomaly: anom.Item()})
}

func series(n, seed int) []float32 {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(100 + 10*math.Sin(float64(i+seed)/6) + float64((i*seed)%5))
	}
	return xs
}

func post(h http.HandlerFunc, xs []float32) response {
	body, _ := json.Marshal(request{Series: xs})
	rec := httptest.NewRecorder()
	h(rec, httptest.NewRequest(http.MethodPost, "/forecast", bytes.NewReader(body)))
	var resp response
	json.NewDecoder(rec.Body).Decode(&resp)
	return resp
}

func main() {
	log.SetOutput(os.Stdout)
	log.SetFlags(0)
	s := &server{model: jit.Jit(forecast)}
	for i, n := range []int{12, 48, 96, 30, 71, 5, 64, 88} {
		resp := post(s.handle, series(n, i))
		fmt.Printf("padded  n=%2d next=%.2f anomaly=%.2f\n", n, resp.Next, resp.Anomaly)
	}
	s.batch = jit.Jit(func(x, mask jit.Array) (jit.Array, jit.Array) {
		s.width = x.Shape()[1] // want traceeffect
		return jit.Vmap(forecast)(x, mask)
	})
	for i := 0; i < 12; i++ {
		var reqs []request
		for j := 0; j <= i%batchRows; j++ {
			reqs = append(reqs, request{Series: series(10+(i*13+j*7)%50, i+j)})
		}
		body, _ := json.Marshal(reqs)
		rec := httptest.NewRecorder()
		s.handleBatch(rec, httptest.NewRequest(http.MethodPost, "/batch", bytes.NewReader(body)))
		fmt.Printf("batch %2d: %s", i, rec.Body.String())
	}
	fmt.Printf("batch compiles=%d last width=%d\n", s.batch.Stats().Compiles, s.width)

	raw := &server{model: jit.Jit(forecast)}
	for i, n := range []int{12, 48, 96, 30, 71, 5} {
		resp := post(raw.handleRaw, series(n, i))
		fmt.Printf("raw     n=%2d next=%.2f anomaly=%.2f\n", n, resp.Next, resp.Anomaly)
	}
	fmt.Printf("compiles: padded=%d raw=%d\n", s.model.Stats().Compiles, raw.model.Stats().Compiles)
}
