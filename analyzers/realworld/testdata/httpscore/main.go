// Command httpscore serves a linear scoring model over HTTP. The handlers
// decode JSON feature vectors of varying lengths and score them with jitted
// functions; main drives them in-process through net/http/httptest.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/jitlint/jitlint/jit"
)

const maxFeatures = 64

var buckets = []int{16, 32, maxFeatures}

type scoreRequest struct {
	Features []float32 `json:"features"`
	Bias     float32   `json:"bias,omitempty"`
}

type scoreResponse struct {
	Score    float64   `json:"score"`
	Label    int       `json:"label,omitempty"`
	Contribs []float32 `json:"contribs,omitempty"`
	Hist     []float32 `json:"hist,omitempty"`
	Micros   int64     `json:"micros"`
}

type serverStats struct {
	requests     int
	kernelTraces int
	lastShape    []int
}

// Server holds the model weights and the jitted kernels.
type Server struct {
	w      jit.Array // f32[maxFeatures]
	stats  serverStats
	logger *log.Logger

	raw      *jit.Func[func(w, x jit.Array) jit.Array]
	padded   *jit.Func[func(string, jit.Array, jit.Array, jit.Array) jit.Array]
	hist     *jit.Func[func(x, mask jit.Array) jit.Array]
	classify *jit.Func[func(w, x, mask, thresh jit.Array) jit.Array]
}

// RawScore is the dot product of x with the first len(x) weights.
func RawScore(w, x jit.Array) jit.Array {
	n := x.Shape()[0]
	return w.Slice([]int{0}, []int{n}).Mul(x).Sum().Logistic()
}

// Histogram counts the real (unmasked) features in 32 equal bins of [-4, 4).
func Histogram(x, mask jit.Array) jit.Array {
	const bins = 32
	counts := make([]jit.Array, 0, bins)
	for b := 0; b < bins; b++ {
		lo := -4 + 8*float64(b)/bins
		in := x.Ge(lo).And(x.Lt(lo + 8.0/bins)).Astype(jit.Float32)
		counts = append(counts, in.Mul(mask).Sum().Reshape(1))
	}
	return jit.Concatenate(0, counts...)
}

// Classify thresholds the masked score.
func Classify(w, x, mask, thresh jit.Array) jit.Array {
	s := w.Slice([]int{0}, []int{x.Shape()[0]}).Mul(x).Mul(mask).Sum().Logistic()
	if s.Gt(thresh).Bool() { // want tracedbool
		return jit.Ones(jit.Int32)
	}
	return jit.Zeros(jit.Int32)
}

// maskedScore scores a padded feature vector, optionally calibrated.
func (s *Server) maskedScore(calibration string, w, x, mask jit.Array) jit.Array {
	s.stats.kernelTraces++        // want traceeffect
	s.stats.lastShape = x.Shape() // want traceeffect
	n := x.Shape()[0]
	z := w.Slice([]int{0}, []int{n}).Mul(x).Mul(mask).Sum()
	if calibration == "platt" {
		z = z.Mul(1.7).Sub(0.3)
	}
	return z.Logistic()
}

// Explain returns each feature's contribution to the logit, spreading the
// bias evenly over the features.
func Explain(w, x jit.Array, bias float32) jit.Array {
	n := x.Shape()[0]
	return w.Slice([]int{0}, []int{n}).Mul(x).Add(bias / float32(n))
}

func NewServer() *Server {
	wd := make([]float32, maxFeatures)
	for i := range wd {
		wd[i] = float32(math.Sin(float64(i)*0.7)) * 0.5
	}
	s := &Server{w: jit.FromSlice(wd), logger: log.New(os.Stdout, "[http] ", 0)}
	s.raw = jit.Jit(RawScore)
	s.padded = jit.Jit(s.maskedScore, jit.StaticArgnums(0))
	s.hist = jit.Jit(Histogram)
	s.classify = jit.Jit(Classify)
	return s
}

func bucketFor(n int) int {
	for _, b := range buckets {
		if n <= b {
			return b
		}
	}
	return -1
}

func decode(w http.ResponseWriter, r *http.Request) (*scoreRequest, bool) {
	var req scoreRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad json: "+err.Error(), http.StatusBadRequest)
		return nil, false
	}
	if len(req.Features) == 0 || len(req.Features) > maxFeatures {
		http.Error(w, "bad feature count", http.StatusBadRequest)
		return nil, false
	}
	return &req, true
}

func (s *Server) padFeatures(feats []float32) (x, mask jit.Array, err error) {
	return jit.PadTo(jit.FromSlice(feats), bucketFor(len(feats)))
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func (s *Server) handleScoreV1(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	req, ok := decode(w, r)
	if !ok {
		return
	}
	s.stats.requests++
	y := s.raw.Call(s.w, jit.FromSlice(req.Features)) // want shapechurn
	writeJSON(w, scoreResponse{Score: y.Item(), Micros: time.Since(start).Microseconds()})
}

func (s *Server) handleScoreV2(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	req, ok := decode(w, r)
	if !ok {
		return
	}
	s.stats.requests++
	x, mask, err := s.padFeatures(req.Features)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	calibration := r.URL.Query().Get("calibration")
	if calibration == "" {
		calibration = "none"
	}
	y := s.padded.Call(calibration, s.w, x, mask)
	writeJSON(w, scoreResponse{Score: scalarOf(y), Micros: time.Since(start).Microseconds()})
}

func (s *Server) handleExplain(w http.ResponseWriter, r *http.Request) {
	req, ok := decode(w, r)
	if !ok {
		return
	}
	s.stats.requests++
	s.logger.Printf("explain: %d features, bias %.2f", len(req.Features), req.Bias)
	explain := jit.Jit(func(x jit.Array) jit.Array { // want staticargs
		return Explain(s.w, x, req.Bias)
	})
	x, _, err := s.padFeatures(req.Features)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c := explain.Call(x).Float32s()
	writeJSON(w, scoreResponse{Contribs: c[:len(req.Features)]})
}

func (s *Server) handleHistogram(w http.ResponseWriter, r *http.Request) {
	req, ok := decode(w, r)
	if !ok {
		return
	}
	s.stats.requests++
	x, mask, err := jit.PadTo(jit.FromSlice(req.Features), maxFeatures)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	writeJSON(w, scoreResponse{Hist: s.hist.Call(x, mask).Float32s()})
}

func (s *Server) handleClassify(w http.ResponseWriter, r *http.Request) {
	req, ok := decode(w, r)
	if !ok {
		return
	}
	s.stats.requests++
	x, mask, err := s.padFeatures(req.Features)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	label := s.classify.Call(s.w, x, mask, jit.Scalar(float32(0.5)))
	writeJSON(w, scoreResponse{Label: int(scalarOf(label))})
}

func scalarOf(a jit.Array) float64 { return a.Item() }

func (s *Server) Routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/score", s.handleScoreV1)
	mux.HandleFunc("POST /v2/score", s.handleScoreV2)
	mux.HandleFunc("POST /v1/explain", s.handleExplain)
	mux.HandleFunc("POST /v1/histogram", s.handleHistogram)
	mux.HandleFunc("POST /v1/classify", s.handleClassify)
	return mux
}

func features(n, seed int) []float32 {
	f := make([]float32, n)
	for i := range f {
		f[i] = float32(math.Cos(float64(seed*31+i)) * 2.5)
	}
	return f
}

func post(h http.Handler, path string, body scoreRequest) (int, scoreResponse) {
	b, _ := json.Marshal(body)
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var resp scoreResponse
	if rec.Code == http.StatusOK {
		json.Unmarshal(rec.Body.Bytes(), &resp)
	}
	return rec.Code, resp
}

func main() {
	s := NewServer()
	h := s.Routes()

	v1Lengths := []int{3, 5, 8, 11, 4, 9, 13, 6, 7, 10, 12, 14}
	total := 0.0
	for i, n := range v1Lengths {
		_, resp := post(h, "/v1/score", scoreRequest{Features: features(n, i)})
		total += resp.Score
	}
	fmt.Printf("v1: %d requests, mean score %.4f, %d compiles\n", len(v1Lengths), total/float64(len(v1Lengths)), s.raw.Stats().Compiles)

	total = 0
	for i := 0; i < 24; i++ {
		path := "/v2/score"
		if i%2 == 1 {
			path += "?calibration=platt"
		}
		_, resp := post(h, path, scoreRequest{Features: features(3+(i*7)%28, i)})
		total += resp.Score
	}
	fmt.Printf("v2: 24 requests, mean score %.4f, %d compiles %v\n", total/24, s.padded.Stats().Compiles, s.padded.Signatures())
	fmt.Printf("v2 kernel traced %d times, last shape %v\n", s.stats.kernelTraces, s.stats.lastShape)

	for i := 0; i < 5; i++ {
		_, resp := post(h, "/v1/explain", scoreRequest{Features: features(6+i, i), Bias: float32(i) * 0.1})
		fmt.Printf("explain %d: first contribs %.3f\n", i, resp.Contribs[:3])
	}

	hist := make([]float32, 32)
	for i := 0; i < 10; i++ {
		_, resp := post(h, "/v1/histogram", scoreRequest{Features: features(20+3*i, i)})
		for b, c := range resp.Hist {
			hist[b] += c
		}
	}
	fmt.Printf("histogram: %v (%d compiles)\n", hist, s.hist.Stats().Compiles)

	fmt.Printf("served %d requests, now checking /v1/classify\n", s.stats.requests)
	post(h, "/v1/classify", scoreRequest{Features: features(10, 0)})
}
