// embedserve serves a tiny bag-of-embeddings sentiment model over HTTP. The
// model types embed a shared Encoder whose methods are promoted; the server
// is exercised in-process with httptest.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const dim = 8

// Encoder holds an embedding-ish projection and a jitted forward pass.
type Encoder struct {
	W   jit.Array
	fwd *jit.Func[func(jit.Array, jit.Array) jit.Array]
}

func NewEncoder() *Encoder {
	w := make([]float32, dim)
	for i := range w {
		w[i] = float32(i%3) - 0.5
	}
	e := &Encoder{W: jit.FromSlice(w)}
	e.fwd = jit.Jit(Encode)
	return e
}

// Encode scores every token id (a float vector) against the weights.
func Encode(tokens, w jit.Array) jit.Array {
	feats := tokens.Reshape(tokens.Shape()[0], 1).Mul(w.Reshape(1, dim)).Sin()
	return feats.Mean(0)
}

// Embed runs the shared jitted encoder.
func (e *Encoder) Embed(tokens jit.Array) jit.Array { return e.fwd.Call(tokens, e.W) }

// Score is a pure method meant to be jitted as a method value.
func (e *Encoder) Score(tokens jit.Array) jit.Array {
	return tokens.Mul(0.1).Tanh().Sum().Add(e.W.Sum())
}

// Gate clips the logit, but it checks the sign with a host conversion.
func (e *Encoder) Gate(logit jit.Array) jit.Array {
	if logit.Item() < 0 { // want tracedbool
		return logit.Mul(0)
	}
	return logit
}

// Sentiment embeds an Encoder; Embed, Score and Gate are promoted.
type Sentiment struct {
	*Encoder
	Labels [2]string
}

// Calibrator maps an embedding to a probability.
type Calibrator struct {
	Scale jit.Array
}

func (c Calibrator) Apply(v jit.Array) jit.Array {
	return v.Sum().Mul(c.Scale).Logistic()
}

type request struct {
	Text string `json:"text"`
}

type response struct {
	Label string  `json:"label"`
	Prob  float64 `json:"prob"`
	Err   string  `json:"err,omitempty"`
}

func tokenize(text string) []float32 {
	var ids []float32
	for _, w := range strings.Fields(text) {
		h := 0
		for _, r := range w {
			h = (h*31 + int(r)) % 97
		}
		ids = append(ids, float32(h)/97)
	}
	return ids
}

// bucket pads to 8 or 16 tokens so the shared encoder sees few shapes.
func bucket(ids []float32) jit.Array {
	size := 8
	if len(ids) > 8 {
		size = 16
	}
	padded, _, err := jit.PadTo(jit.FromSlice(ids), size)
	if err != nil {
		panic(err)
	}
	return padded
}

// safeCall runs a jitted call, turning a jit panic into an error.
func safeCall(f func(jit.Array) jit.Array, x jit.Array) (y jit.Array, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = r.(error)
		}
	}()
	return f(x), nil
}

func errKind(err error) string {
	var je *jit.Error
	if errors.As(err, &je) {
		return je.Kind.String()
	}
	return ""
}

// scoreText scores with a per-request model, so tenants never share state.
func scoreText(m *Sentiment, text string) float64 {
	score := jit.Jit(m.Score) // want staticargs
	return score.Call(bucket(tokenize(text))).Item()
}

func newMux(shared *Sentiment) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/classify", func(w http.ResponseWriter, r *http.Request) {
		var req request
		_ = json.NewDecoder(r.Body).Decode(&req)
		ids := tokenize(req.Text)
		var v jit.Array
		if r.URL.Query().Get("raw") == "1" {
			v = shared.fwd.Call(jit.FromSlice(ids), shared.W) // want shapechurn
		} else {
			v = shared.Embed(bucket(ids))
		}
		head := jit.Jit(Calibrator.Apply)
		p := head.Call(Calibrator{Scale: jit.Scalar(float32(2))}, v).Item()
		label := shared.Labels[0]
		if p > 0.5 {
			label = shared.Labels[1]
		}
		_ = json.NewEncoder(w).Encode(response{Label: label, Prob: p})
	})
	mux.HandleFunc("/score", func(w http.ResponseWriter, r *http.Request) {
		var req request
		_ = json.NewDecoder(r.Body).Decode(&req)
		s := scoreText(&Sentiment{Encoder: NewEncoder(), Labels: shared.Labels}, req.Text)
		_ = json.NewEncoder(w).Encode(response{Label: "score", Prob: s})
	})
	gate := jit.Jit(shared.Gate)
	clip := jit.Jit(func(logit jit.Array) jit.Array { return jit.Where(logit.Lt(0), 0.0, logit) })
	mux.HandleFunc("/gate", func(w http.ResponseWriter, r *http.Request) {
		x := jit.Scalar(float32(-1.5))
		g, err := safeCall(gate.Call, x)
		if err != nil {
			g = clip.Call(x)
		}
		_ = json.NewEncoder(w).Encode(response{Label: "gate", Prob: g.Item(), Err: errKind(err)})
	})
	return mux
}

func post(srv *httptest.Server, path, text string) string {
	body, _ := json.Marshal(request{Text: text})
	resp, err := srv.Client().Post(srv.URL+path, "application/json", strings.NewReader(string(body)))
	if err != nil {
		return "error: " + err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b)))
}

func main() {
	model := &Sentiment{Encoder: NewEncoder(), Labels: [2]string{"neg", "pos"}}
	srv := httptest.NewServer(newMux(model))
	defer srv.Close()

	texts := []string{
		"good",
		"good film",
		"a rather good film",
		"not a good film at all",
		"the plot was thin but the acting was fine",
		"i would watch it again with friends on a rainy day",
	}
	for _, t := range texts {
		fmt.Println("classify:", post(srv, "/classify", t))
	}
	for _, t := range texts {
		fmt.Println("classify raw:", post(srv, "/classify?raw=1", t))
	}
	for _, t := range texts[:4] {
		fmt.Println("score:", post(srv, "/score", t))
	}
	fmt.Println("gate:", post(srv, "/gate", ""))
	fmt.Println("encoder compiles:", len(model.fwd.Signatures()))
}
