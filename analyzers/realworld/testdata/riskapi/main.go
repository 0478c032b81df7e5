// riskapi serves a credit-risk model over HTTP/JSON. The model is built lazily on
// the first request behind sync.Once; the test client below drives it with httptest.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

const maxLen = 16

type scoreRequest struct {
	Features  []float32 `json:"features"`
	Threshold float64   `json:"threshold"`
	Mode      string    `json:"mode"`
}

type scoreResponse struct {
	Score    float64 `json:"score"`
	Approved bool    `json:"approved,omitempty"`
	Error    string  `json:"error,omitempty"`
}

type riskModel struct {
	weights jit.Array
	score   *jit.Func[func(jit.Array, jit.Array, string) jit.Array]
	decide  *jit.Func[func(jit.Array, jit.Array, float64) jit.Array]
	explain *jit.Func[func(jit.Array, jit.Array) jit.Array]
}

var (
	modelOnce sync.Once
	model     *riskModel
	auditLog  []string
)

func weightedMean(w, x, mask jit.Array) jit.Array {
	return x.Mul(w).Mul(mask).Sum().Div(mask.Sum().Max(1))
}

func getModel() *riskModel {
	modelOnce.Do(func() {
		w := make([]float32, maxLen)
		for i := range w {
			w[i] = 1 / float32(i+1)
		}
		m := &riskModel{weights: jit.FromSlice(w)}
		m.score = jit.Jit(func(x, mask jit.Array, mode string) jit.Array {
			s := weightedMean(m.weights, x, mask)
			if mode == "calibrated" {
				s = s.Logistic()
			}
			jit.DebugPrint("raw score %v\n", s)
			return s
		}, jit.StaticArgnums(2))
		m.decide = jit.Jit(func(x, mask jit.Array, threshold float64) jit.Array {
			auditLog = append(auditLog, fmt.Sprintf("decide traced for threshold %.2f", threshold)) // want traceeffect
			return weightedMean(m.weights, x, mask).Logistic().Gt(threshold)
		}, jit.StaticArgnums(2))
		m.explain = jit.Jit(func(x, mask jit.Array) jit.Array {
			contrib := x.Mul(m.weights).Mul(mask)
			if contrib.Sum().Item() < 0 { // want tracedbool
				return contrib.Neg()
			}
			return contrib
		})
		model = m
	})
	return model
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// recoverJit turns a *jit.Error panic from a traced handler into a 500.
func recoverJit(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				var jerr *jit.Error
				if err, ok := v.(error); ok && errors.As(err, &jerr) {
					writeJSON(w, http.StatusInternalServerError, scoreResponse{Error: jerr.Kind.String()})
					return
				}
				panic(v)
			}
		}()
		next(w, r)
	}
}

func decodePadded(r *http.Request) (scoreRequest, jit.Array, jit.Array, error) {
	var req scoreRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		return req, jit.Array{}, jit.Array{}, err
	}
	x, mask, err := jit.PadTo(jit.FromSlice(req.Features), maxLen)
	return req, x, mask, err
}

func handleScore(w http.ResponseWriter, r *http.Request) {
	req, x, mask, err := decodePadded(r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, scoreResponse{Error: err.Error()})
		return
	}
	s := getModel().score.Call(x, mask, req.Mode).Item()
	writeJSON(w, http.StatusOK, scoreResponse{Score: math.Round(s*1000) / 1000})
}

func handleDecide(w http.ResponseWriter, r *http.Request) {
	req, x, mask, err := decodePadded(r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, scoreResponse{Error: err.Error()})
		return
	}
	ok := getModel().decide.Call(x, mask, req.Threshold).Bool() // want staticargs
	writeJSON(w, http.StatusOK, scoreResponse{Approved: ok})
}

func handleExplain(w http.ResponseWriter, r *http.Request) {
	_, x, mask, err := decodePadded(r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, scoreResponse{Error: err.Error()})
		return
	}
	c := getModel().explain.Call(x, mask)
	writeJSON(w, http.StatusOK, scoreResponse{Score: float64(c.Size())})
}

func post(client *http.Client, url string, req scoreRequest) scoreResponse {
	body, _ := json.Marshal(req)
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return scoreResponse{Error: err.Error()}
	}
	defer resp.Body.Close()
	var out scoreResponse
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return out
}

func main() {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /score", recoverJit(handleScore))
	mux.HandleFunc("POST /decide", recoverJit(handleDecide))
	mux.HandleFunc("POST /explain", recoverJit(handleExplain))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	client := srv.Client()

	modes := []string{"raw", "calibrated"}
	total := 0.0
	for i := 0; i < 20; i++ {
		feats := make([]float32, 1+i%maxLen)
		for j := range feats {
			feats[j] = float32((i*j)%5) - 1
		}
		resp := post(client, srv.URL+"/score", scoreRequest{Features: feats, Mode: modes[i%2]})
		total += resp.Score
	}
	fmt.Printf("score: 20 requests, total %.3f, compiles %d\n", total, getModel().score.Stats().Compiles)

	approved := 0
	for i := 0; i < 8; i++ {
		// Each caller sends its own risk appetite.
		req := scoreRequest{Features: []float32{1, 2, float32(i)}, Threshold: 0.5 + 0.05*float64(i)}
		if post(client, srv.URL+"/decide", req).Approved {
			approved++
		}
	}
	fmt.Printf("decide: %d/8 approved, %d audit lines\n", approved, len(auditLog))

	resp := post(client, srv.URL+"/explain", scoreRequest{Features: []float32{3, -4}})
	fmt.Printf("explain: error=%q\n", resp.Error)
}
