// Command vxmiddle serves a scoring model behind a chain of middleware
// (logging, metrics, response cache, per-request timeouts) and replays a
// fixed set of client requests against it through net/http/httptest.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/jitlint/jitlint/jit"
)

type Request struct {
	Route     string    `json:"route"`
	Values    []float32 `json:"values"`
	Scale     float64   `json:"scale"`
	BudgetMS  int       `json:"budget_ms"`
	RequestID string    `json:"id"`
}

type Response struct {
	Score float64 `json:"score"`
	Width int     `json:"width"`
	Error string  `json:"error,omitempty"`
}

// Handler is one stage of the inference pipeline.
type Handler func(ctx context.Context, req *Request) (*Response, error)

// Middleware wraps a Handler.
type Middleware func(next Handler) Handler

func Chain(h Handler, mws ...Middleware) Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

var logger = log.New(os.Stderr, "vxmiddle ", 0)

func Logging() Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (*Response, error) {
			resp, err := next(ctx, req)
			logger.Printf("%s route=%s n=%d err=%v", req.RequestID, req.Route, len(req.Values), err)
			return resp, err
		}
	}
}

// Metrics counts requests per route and keeps observed kernel widths.
type Metrics struct {
	mu     sync.Mutex
	counts map[string]int
	widths map[string]int
}

func (m *Metrics) Observe(name string, v int) {
	m.mu.Lock()
	m.widths[fmt.Sprintf("%s=%d", name, v)]++ // want traceeffect
	m.mu.Unlock()
}

func (m *Metrics) Middleware() Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (*Response, error) {
			m.mu.Lock()
			m.counts[req.Route]++
			m.mu.Unlock()
			return next(ctx, req)
		}
	}
}

var metrics = &Metrics{counts: map[string]int{}, widths: map[string]int{}}

// Cache memoizes responses by payload.
func Cache() Middleware {
	var mu sync.Mutex
	seen := map[string]*Response{}
	return func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (*Response, error) {
			key := fmt.Sprint(req.Route, req.Scale, req.Values)
			mu.Lock()
			r, ok := seen[key]
			mu.Unlock()
			if ok {
				return r, nil
			}
			r, err := next(ctx, req)
			if err == nil {
				mu.Lock()
				seen[key] = r
				mu.Unlock()
			}
			return r, err
		}
	}
}

// Timeout gives each request its own budget.
func Timeout(def time.Duration) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (*Response, error) {
			d := def
			if req.BudgetMS != 0 {
				d = time.Duration(req.BudgetMS) * time.Millisecond
			}
			ctx, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("budget %v: %w", d, err)
			}
			return next(ctx, req)
		}
	}
}

// maskedScore is the production kernel: padded input plus mask.
func maskedScore(x, mask, scale jit.Array) jit.Array {
	metrics.Observe("kernel_width", x.Shape()[0])
	z := x.Mul(mask).Mul(scale)
	return z.Tanh().Sum().Div(mask.Sum().Max(1))
}

// rawScore is the v0 kernel, kept for old clients.
func rawScore(x jit.Array) jit.Array { return x.Tanh().Mean() }

var (
	maskedJit = jit.Jit(maskedScore)
	rawJit    = jit.Jit(rawScore)
)

func bucket(n int) int {
	for _, b := range []int{16, 64, 256} {
		if n <= b {
			return b
		}
	}
	return n
}

func inference(ctx context.Context, req *Request) (*Response, error) {
	if len(req.Values) == 0 {
		return nil, errors.New("empty payload")
	}
	x := jit.FromSlice(req.Values)
	switch req.Route {
	case "v1":
		padded, mask, err := jit.PadTo(x, bucket(len(req.Values)))
		if err != nil {
			return nil, err
		}
		y := maskedJit.Call(padded, mask, jit.Scalar(float32(req.Scale)))
		return &Response{Score: y.Item(), Width: padded.Size()}, nil
	case "v0":
		y := rawJit.Call(x) // want shapechurn
		return &Response{Score: y.Item(), Width: x.Size()}, nil
	case "calibrated":
		padded, mask, err := jit.PadTo(x, 64)
		if err != nil {
			return nil, err
		}
		t := req.Scale
		calib := jit.Jit(func(x, m jit.Array) jit.Array { return x.Div(t).Logistic().Mul(m).Sum() }) // want staticargs
		return &Response{Score: calib.Call(padded, mask).Item(), Width: 64}, nil
	}
	return nil, fmt.Errorf("unknown route %q", req.Route)
}

func httpAdapter(h Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req Request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		resp, err := h(r.Context(), &req)
		if err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			resp = &Response{Error: err.Error()}
		}
		json.NewEncoder(w).Encode(resp)
	})
}

func replay(c *http.Client, url string, reqs []Request) {
	for _, req := range reqs {
		body, _ := json.Marshal(req)
		resp, err := c.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			fmt.Println("transport error:", errors.Unwrap(err) != nil)
			continue
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%-5s %-10s %3d %s", req.RequestID, req.Route, resp.StatusCode, out)
	}
}

func main() {
	h := Chain(inference, Logging(), metrics.Middleware(), Cache(), Timeout(2*time.Second))
	srv := httptest.NewServer(httpAdapter(h))

	var reqs []Request
	for i := range 12 {
		n := 3 + 3*i
		vals := make([]float32, n)
		for j := range vals {
			vals[j] = float32((j*7+i)%11)/5 - 1
		}
		route := []string{"v1", "v0", "calibrated"}[i%3]
		reqs = append(reqs, Request{Route: route, Values: vals, Scale: 0.5 + 0.1*float64(i), RequestID: fmt.Sprintf("r%02d", i)})
	}
	reqs = append(reqs, reqs[0], reqs[1]) // repeats are served from the cache
	reqs = append(reqs, Request{Route: "v1", Values: []float32{1, 2}, BudgetMS: -1, RequestID: "late"})
	reqs = append(reqs, Request{Route: "v1", RequestID: "empty"})

	replay(srv.Client(), srv.URL, reqs)
	srv.Close()
	// After shutdown the client must see a transport error, not a hang.
	replay(srv.Client(), srv.URL, reqs[:1])
	var keys []string
	for k := range metrics.widths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println("requests per route:", metrics.counts, "kernel widths:", keys)
}
