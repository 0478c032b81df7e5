package a

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"

	"github.com/jitlint/jitlint/jit"
)

// A request handler runs once per request: a jit.Jit call in it, or in a
// function it calls, makes a new wrapper (and a new compile) per request;
// a static argument it decodes from the request is a new value per
// request. A wrapper made once, a static value from a few buckets and a
// label (a mode string, a flag) are not churn.

type haRequest struct {
	Temperature float64   `json:"temperature"`
	Rows        []float32 `json:"rows"`
	Mode        string    `json:"mode"`
	Calibrate   bool      `json:"calibrate"`
}

var haScale = jit.Jit(func(t float64, x jit.Array) jit.Array { return x.Div(t) }, jit.StaticArgnums(0))

var haModed = jit.Jit(func(mode string, on bool, x jit.Array) jit.Array {
	if mode == "raw" || !on {
		return x
	}
	return x.Tanh()
}, jit.StaticArgnums(0, 1))

func haDecode(r *http.Request) (haRequest, bool) {
	var req haRequest
	return req, json.NewDecoder(r.Body).Decode(&req) == nil
}

func haCalibrated(w http.ResponseWriter, r *http.Request) {
	req, ok := haDecode(r)
	if !ok {
		return
	}
	t := req.Temperature
	scaled := jit.Jit(func(x jit.Array) jit.Array { return x.Div(t) }) // want `jit.Jit runs on every call of haCalibrated, and haCalibrated serves HTTP requests \(net/http runs it once per request\)`
	scaled.Call(jit.FromSlice(req.Rows))
	haScale.Call(req.Temperature, jit.FromSlice(req.Rows))          // want `static argument t comes from each request to haCalibrated: each new value traces and compiles again. Pass it as an array argument`
	haScale.Call(haLevel(req.Temperature), jit.FromSlice(req.Rows)) // not reported: three levels
	haModed.Call(req.Mode, req.Calibrate, jit.FromSlice(req.Rows))  // not reported: a mode and a switch, labels of a few values
}

func haLevel(t float64) float64 {
	switch {
	case t < 0.5:
		return 0.25
	case t < 1:
		return 0.75
	}
	return 1.5
}

func haPredict(rows []float32) jit.Array {
	f := jit.Jit(func(x jit.Array) jit.Array { return x.Sum() }) // want `jit.Jit runs on every call of haPredict, and it runs in an HTTP handler \(the function literal at httphandlers.go:69\), once per request`
	return f.Call(jit.FromSlice(rows))
}

func haRoutes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/calibrated", haCalibrated)
	mux.HandleFunc("/predict", func(w http.ResponseWriter, r *http.Request) {
		if req, ok := haDecode(r); ok {
			haPredict(req.Rows)
		}
	})
	return mux
}

// haServer is an http.Handler: its ServeHTTP serves requests.
type haServer struct{ eps float64 }

func (s *haServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req, ok := haDecode(r)
	if !ok {
		return
	}
	norm := jit.Jit(func(x jit.Array) jit.Array { return x.Add(s.eps) }) // want `jit.Jit runs on every call of ServeHTTP, and ServeHTTP serves HTTP requests`
	norm.Call(jit.FromSlice(req.Rows))
}

func haStart() *httptest.Server { return httptest.NewServer(&haServer{eps: 1e-6}) }
