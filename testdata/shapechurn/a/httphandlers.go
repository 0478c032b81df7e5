package a

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/jitlint/jitlint/jit"
)

// A request handler runs once per request (net/http calls the functions
// given to HandleFunc and Handle, and those converted to
// http.HandlerFunc): what it decodes from the request is new on each run,
// so a shape made of it is a new shape per request, unless it is padded
// to a few buckets or bounded by the server's own state.

type hhServer struct {
	score   *jit.Func[func(jit.Array) jit.Array]
	buckets []int
}

type hhRequest struct {
	Rows [][]float32 `json:"rows"`
}

func hhRows(rows [][]float32, n int) jit.Array {
	flat := make([]float32, 0, n*4)
	for _, r := range rows {
		flat = append(flat, r...)
	}
	flat = append(flat, make([]float32, (n-len(rows))*4)...)
	return jit.FromSlice(flat, n, 4)
}

func hhBucket(n int) int {
	for _, b := range []int{8, 16, 32} {
		if n <= b {
			return b
		}
	}
	return 32
}

func hhPick(n int, sizes []int) int {
	for _, b := range sizes {
		if n <= b {
			return b
		}
	}
	return sizes[len(sizes)-1]
}

func hhPow2(n int) int {
	b := 16
	for b < n {
		b *= 2
	}
	return b
}

func (s *hhServer) raw(w http.ResponseWriter, r *http.Request) {
	var req hhRequest
	if json.NewDecoder(r.Body).Decode(&req) != nil {
		return
	}
	s.score.Call(hhRows(req.Rows, len(req.Rows))) // want `argument hhRows\(req.Rows, len\(req.Rows\)\) has a shape that each request to raw sets: one compile per distinct shape, as many as the requests' sizes. Pad to a few bucket sizes with jit.PadTo and pass a mask`
}

func (s *hhServer) bucketed(w http.ResponseWriter, r *http.Request) {
	var req hhRequest
	if json.NewDecoder(r.Body).Decode(&req) != nil {
		return
	}
	s.score.Call(hhRows(req.Rows, hhBucket(len(req.Rows)))) // not reported: three buckets
	s.score.Call(hhRows(req.Rows, hhPow2(len(req.Rows))))   // not reported: one per power of two
	b, l := hhPick(len(req.Rows), []int{4, 8}), hhPick(len(req.Rows[0]), []int{8, 16})
	s.score.Call(jit.Zeros(jit.Float32, b, l)) // not reported: four shapes (the last size twice is one)
}

func (s *hhServer) configured(w http.ResponseWriter, r *http.Request) {
	var req hhRequest
	if json.NewDecoder(r.Body).Decode(&req) != nil {
		return
	}
	n := s.buckets[len(s.buckets)-1]
	s.score.Call(hhRows(req.Rows, max(n, 1))) // not reported: the server's own size
}

func hhLogged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next.ServeHTTP(w, r) })
}

// upload reads the image's dims from the body's header: what fmt.Sscanf
// writes through its variadic pointers is the request's.
func (s *hhServer) upload(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var h, wd int
	fmt.Sscanf(string(body), "%d %d", &h, &wd)
	s.score.Call(jit.Zeros(jit.Float32, h, wd)) // want `has a shape that each request to upload sets`
}

// hhDecode decodes the request in a helper: what it decodes is new on each
// request too, since the handler runs it on each.
func hhDecode(r *http.Request) (*hhRequest, bool) {
	var req hhRequest
	if json.NewDecoder(r.Body).Decode(&req) != nil {
		return nil, false
	}
	return &req, true
}

func (s *hhServer) viaHelper(w http.ResponseWriter, r *http.Request) {
	req, ok := hhDecode(r)
	if !ok {
		return
	}
	s.score.Call(hhRows(req.Rows, len(req.Rows))) // want `has a shape that each request to viaHelper sets`
}

// hhServe pads when asked: under the test of padded, n is the fixed size,
// whatever the callers pass.
func (s *hhServer) hhServe(r *http.Request, padded bool) {
	req, ok := hhDecode(r)
	if !ok {
		return
	}
	n := len(req.Rows)
	if padded {
		n = 32
	}
	if padded {
		s.score.Call(hhRows(req.Rows, n)) // not reported: the branch fixes n
	}
}

func hhRoutes(s *hhServer) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/helper", s.viaHelper)
	mux.HandleFunc("/padded", func(w http.ResponseWriter, r *http.Request) { s.hhServe(r, true) })
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) { s.hhServe(r, false) })
	mux.HandleFunc("/upload", s.upload)
	mux.HandleFunc("/raw", s.raw)
	mux.HandleFunc("/bucketed", s.bucketed)
	mux.Handle("/configured", hhLogged(http.HandlerFunc(s.configured)))
	mux.Handle("/wrapped", hhLogged(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req hhRequest
		if json.NewDecoder(r.Body).Decode(&req) == nil {
			s.score.Call(hhRows(req.Rows, len(req.Rows))) // want `argument hhRows\(req.Rows, len\(req.Rows\)\) has a shape that each request to the function literal at httphandlers.go:146 sets`
		}
	})))
	return mux
}
