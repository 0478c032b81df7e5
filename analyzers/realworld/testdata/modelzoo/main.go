// modelzoo benchmarks a few small regression architectures behind one Model
// interface (the Flax `nn.Module` zoo of the original repo: MLP, a
// pre-activation residual MLP and a gated MLP), then serves the trained
// models over HTTP. Each model's forward pass is jitted through its method
// expression, with the train/eval flag static (dropout only in training).
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const (
	inDim   = 4
	batch   = 64
	steps   = 20
	maxServ = 8 // serving batches are padded to this many rows
)

// Weights is a flat parameter dict, as in a Flax params FrozenDict.
type Weights = map[string]jit.Array

// Model is the zoo's interface.
type Model interface {
	Name() string
	Init(rng *rand.Rand) Weights
	Apply(w Weights, x, noise jit.Array, train bool) jit.Array
}

func dense(rng *rand.Rand, w Weights, name string, in, out int) {
	v := make([]float32, in*out)
	s := math.Sqrt(1 / float64(in))
	for i := range v {
		v[i] = float32(rng.NormFloat64() * s)
	}
	w[name+".w"] = jit.FromSlice(v, in, out)
	w[name+".b"] = jit.Zeros(jit.Float32, out)
}

func affine(w Weights, name string, h jit.Array) jit.Array {
	return h.MatMul(w[name+".w"]).Add(w[name+".b"])
}

// dropout zeroes activations where the uniform noise is below rate; eval
// mode is the identity. train is a static Go bool.
func dropout(h, noise jit.Array, rate float64, train bool) jit.Array {
	if !train || rate == 0 {
		return h
	}
	return jit.Where(noise.Lt(rate), 0.0, h.Div(1-rate))
}

// MLP is a plain tanh MLP.
type MLP struct {
	Width   int     `jit:"static"`
	Depth   int     `jit:"static"`
	Dropout float64 `jit:"static"`
}

func (m *MLP) Name() string { return fmt.Sprintf("mlp-%dx%d", m.Depth, m.Width) }

func (m *MLP) Init(rng *rand.Rand) Weights {
	w := Weights{}
	dense(rng, w, "in", inDim, m.Width)
	for i := 0; i < m.Depth; i++ {
		dense(rng, w, "h"+strconv.Itoa(i), m.Width, m.Width)
	}
	dense(rng, w, "out", m.Width, 1)
	return w
}

func (m *MLP) Apply(w Weights, x, noise jit.Array, train bool) jit.Array {
	h := affine(w, "in", x).Tanh()
	for i := 0; i < m.Depth; i++ {
		h = dropout(affine(w, "h"+strconv.Itoa(i), h).Tanh(), noise, m.Dropout, train)
	}
	return affine(w, "out", h).Reshape(x.Shape()[0])
}

// ResMLP is a residual MLP; like the PyTorch original it rescales the
// residual stream when its activations blow up.
type ResMLP struct {
	Width  int     `jit:"static"`
	Blocks int     `jit:"static"`
	MaxAct float64 `jit:"static"`
}

func (m *ResMLP) Name() string { return fmt.Sprintf("resmlp-%d", m.Blocks) }

func (m *ResMLP) Init(rng *rand.Rand) Weights {
	w := Weights{}
	dense(rng, w, "in", inDim, m.Width)
	for i := 0; i < m.Blocks; i++ {
		dense(rng, w, "blk"+strconv.Itoa(i), m.Width, m.Width)
	}
	dense(rng, w, "out", m.Width, 1)
	return w
}

func (m *ResMLP) Apply(w Weights, x, noise jit.Array, train bool) jit.Array {
	h := affine(w, "in", x)
	for i := 0; i < m.Blocks; i++ {
		h = h.Add(affine(w, "blk"+strconv.Itoa(i), jit.Relu(h)))
		if peak := h.Abs().MaxReduce().Item(); peak > m.MaxAct { // want tracedbool
			h = h.Mul(m.MaxAct / peak)
		}
	}
	return affine(w, "out", h).Reshape(x.Shape()[0])
}

// GatedMLP uses GLU layers: (h W) * sigmoid(h V).
type GatedMLP struct {
	Width int `jit:"static"`
}

func (m *GatedMLP) Name() string { return "gmlp" }

func (m *GatedMLP) Init(rng *rand.Rand) Weights {
	w := Weights{}
	dense(rng, w, "val", inDim, m.Width)
	dense(rng, w, "gate", inDim, m.Width)
	dense(rng, w, "out", m.Width, 1)
	return w
}

func (m *GatedMLP) Apply(w Weights, x, noise jit.Array, train bool) jit.Array {
	h := affine(w, "val", x).Mul(affine(w, "gate", x).Logistic())
	return affine(w, "out", dropout(h, noise, 0.1, train)).Reshape(x.Shape()[0])
}

// TrainStep is one SGD step on the mean squared error of any zoo model; the
// model itself is a pytree of static hyperparameters.
func TrainStep(m Model, w Weights, x, y, noise, lr jit.Array) (Weights, jit.Array) {
	loss := func(w Weights) jit.Array {
		d := m.Apply(w, x, noise, true).Sub(y)
		return d.Mul(d).Mean()
	}
	l, g := jit.ValueAndGrad[func(Weights) (jit.Array, Weights)](loss)(w)
	out := Weights{}
	for k, v := range w {
		out[k] = v.Sub(g[k].Mul(lr))
	}
	return out, l
}

// entry is a registered model with its jitted programs.
type entry struct {
	name    string
	init    func(*rand.Rand) Weights
	step    func(w Weights, x, y, noise, lr jit.Array) (Weights, jit.Array)
	forward func(w Weights, x, noise jit.Array, train bool) jit.Array
	model   Model
}

// forwardFn is a model's jitted forward pass with the model bound.
type forwardFn = func(w Weights, x, noise jit.Array, train bool) jit.Array

var trainStep = jit.Jit(TrainStep)

func register(m Model, forward forwardFn) entry {
	return entry{
		name: m.Name(), init: m.Init, model: m, forward: forward,
		step: func(w Weights, x, y, n, lr jit.Array) (Weights, jit.Array) { return trainStep.Call(m, w, x, y, n, lr) },
	}
}

func uniform(rng *rand.Rand, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = rng.Float32()
	}
	return jit.FromSlice(v, shape...)
}

func target(x []float32) float32 {
	return float32(math.Sin(3*float64(x[0]))*math.Cos(float64(x[1])) + 0.3*float64(x[2]*x[3]))
}

func dataset(rng *rand.Rand, n int) (jit.Array, jit.Array) {
	xs := make([]float32, n*inDim)
	ys := make([]float32, n)
	for i := 0; i < n; i++ {
		for j := 0; j < inDim; j++ {
			xs[i*inDim+j] = float32(rng.NormFloat64())
		}
		ys[i] = target(xs[i*inDim : (i+1)*inDim])
	}
	return jit.FromSlice(xs, n, inDim), jit.FromSlice(ys, n)
}

// benchmark trains one model and reports its final train/eval-mode losses.
func benchmark(e entry, x, y jit.Array, rng *rand.Rand) (w Weights, err error) {
	defer func() {
		if r := recover(); r != nil {
			var je *jit.Error
			if re, ok := r.(error); ok && errors.As(re, &je) {
				// Same report as an uncaught panic, but the sweep goes on
				// with the next model.
				fmt.Fprintf(os.Stderr, "panic: %v\n", re)
				err = fmt.Errorf("%s while tracing", je.Kind)
				return
			}
			panic(r)
		}
	}()
	w = e.init(rng)
	d0 := e.forward(w, x, jit.Zeros(jit.Float32, batch, 32), false).Sub(y)
	fmt.Printf("  %-10s init mse %.4f\n", e.name, d0.Mul(d0).Mean().Item())
	lr := jit.Scalar(float32(0.05))
	for s := 0; s < steps; s++ {
		w, _ = e.step(w, x, y, uniform(rng, batch, 32), lr)
		if s%10 == 9 {
			for _, train := range []bool{true, false} {
				d := e.forward(w, x, uniform(rng, batch, 32), train).Sub(y)
				fmt.Printf("  %-10s step %2d train=%-5v mse %.4f\n", e.name, s+1, train, d.Mul(d).Mean().Item())
			}
		}
	}
	return w, nil
}

func main() {
	rng := rand.New(rand.NewSource(11))
	x, y := dataset(rng, batch)
	// One forward program per architecture, jitted through the method
	// expression; the receiver's fields are static hyperparameters.
	mlp := &MLP{Width: 32, Depth: 2, Dropout: 0.1}
	mlpApply := jit.Jit((*MLP).Apply, jit.StaticArgnums(4))
	res := &ResMLP{Width: 32, Blocks: 4, MaxAct: 50}
	resApply := jit.Jit((*ResMLP).Apply, jit.StaticArgnums(4))
	gmlp := &GatedMLP{Width: 32}
	gmlpApply := jit.Jit((*GatedMLP).Apply, jit.StaticArgnums(4))
	zoo := []entry{
		register(mlp, func(w Weights, x, n jit.Array, train bool) jit.Array { return mlpApply.Call(mlp, w, x, n, train) }),
		register(gmlp, func(w Weights, x, n jit.Array, train bool) jit.Array { return gmlpApply.Call(gmlp, w, x, n, train) }),
	}
	trained := map[string]Weights{}
	models := map[string]Model{}
	for _, e := range zoo {
		w, err := benchmark(e, x, y, rng)
		if err != nil {
			panic(err)
		}
		trained[e.name], models[e.name] = w, e.model
	}

	// Serving: /v1 is the handler of the first prototype; /v2 pads each
	// request to maxServ rows and uses one wrapper per model, made at
	// start-up from the model's Apply.
	v2 := map[string]*jit.Func[func(Weights, jit.Array, jit.Array, bool) jit.Array]{}
	for name, m := range models {
		v2[name] = jit.Jit(m.Apply, jit.StaticArgnums(3))
	}
	mux := http.NewServeMux()
	handle := func(rw http.ResponseWriter, r *http.Request, padded bool) {
		name := r.URL.Query().Get("model")
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		m, ok := models[name]
		if !ok || n < 1 || n > maxServ {
			http.Error(rw, "bad request", http.StatusBadRequest)
			return
		}
		req := rand.New(rand.NewSource(int64(n)))
		rows := n
		if padded {
			rows = maxServ
		}
		xs := make([]float32, rows*inDim)
		for i := 0; i < n*inDim; i++ {
			xs[i] = float32(req.NormFloat64())
		}
		xin, noise := jit.FromSlice(xs, rows, inDim), jit.Zeros(jit.Float32, rows, 32)
		var pred jit.Array
		if padded {
			pred = v2[name].Call(trained[name], xin, noise, false)
		} else {
			fwd := jit.Jit(func(w Weights, x jit.Array) jit.Array { // want staticargs
				return m.Apply(w, x, noise, false)
			})
			pred = fwd.Call(trained[name], xin)
		}
		json.NewEncoder(rw).Encode(pred.Float32s()[:n])
	}
	mux.HandleFunc("/v1/predict", func(rw http.ResponseWriter, r *http.Request) { handle(rw, r, false) })
	mux.HandleFunc("/v2/predict", func(rw http.ResponseWriter, r *http.Request) { handle(rw, r, true) })
	srv := httptest.NewServer(mux)

	names := make([]string, 0, len(models))
	for name := range models {
		names = append(names, name)
	}
	sort.Strings(names)
	get := func(url string) (int, string) {
		resp, err := http.Get(url)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, strings.TrimSpace(string(body))
	}
	for _, api := range []string{"v1", "v2"} {
		for _, name := range names {
			for i, n := range []int{3, 3, 5, 3, 8, 3} {
				code, body := get(fmt.Sprintf("%s/%s/predict?model=%s&n=%d", srv.URL, api, name, n))
				if i == 0 {
					fmt.Printf("%s %s n=%d -> %d %s\n", api, name, n, code, body)
				}
			}
		}
	}
	code, body := get(srv.URL + "/v2/predict?model=resmlp-4&n=2")
	fmt.Printf("untrained model -> %d %s\n", code, body)
	for _, name := range names {
		fmt.Printf("%s: /v2 forward compiled %d time(s)\n", name, v2[name].Stats().Compiles)
	}
	srv.Close()

	// The residual MLP from the PyTorch repo is still a candidate: it is
	// benchmarked after the serving check so it cannot hold up the others.
	cand := register(res, func(w Weights, x, n jit.Array, train bool) jit.Array { return resApply.Call(res, w, x, n, train) })
	if _, err := benchmark(cand, x, y, rng); err != nil {
		fmt.Printf("candidate %s rejected: %v\n", cand.name, err)
	}
}
