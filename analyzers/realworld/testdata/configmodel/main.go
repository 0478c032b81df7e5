// Command config_model builds a small residual MLP from a config struct and
// serves it through methods: method values, method expressions and a layer
// type whose activation is a static field.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Config describes the model.
type Config struct {
	Width       int
	Layers      int
	RefineSteps int
	Clip        bool
	Act         string
}

// Layer is a pytree: weights are traced, the activation is static.
type Layer struct {
	W   jit.Array
	B   jit.Array
	Act string `jit:"static"`
}

// Apply runs one layer; the Go switch is on a static field.
func (l Layer) Apply(x jit.Array) jit.Array {
	h := x.MatMul(l.W).Add(l.B)
	switch l.Act {
	case "relu":
		return jit.Relu(h)
	case "softplus":
		return jit.Softplus(h)
	default:
		return h.Tanh()
	}
}

// Model holds the config and its layers.
type Model struct {
	cfg    Config
	layers []Layer
}

func NewModel(cfg Config) *Model {
	m := &Model{cfg: cfg}
	for l := 0; l < cfg.Layers; l++ {
		w := make([]float32, cfg.Width*cfg.Width)
		for i := range w {
			w[i] = float32(math.Sin(float64(i+l*31))) / float32(cfg.Width)
		}
		m.layers = append(m.layers, Layer{
			W:   jit.FromSlice(w, cfg.Width, cfg.Width),
			B:   jit.Zeros(jit.Float32, cfg.Width),
			Act: cfg.Act,
		})
	}
	return m
}

// Forward runs the residual stack (a handful of layers).
func (m *Model) Forward(x jit.Array) jit.Array {
	for _, l := range m.layers {
		x = x.Add(l.Apply(x))
	}
	return x
}

// Refine runs RefineSteps fixed-point refinement iterations.
func (m *Model) Refine(x jit.Array) jit.Array {
	y := x
	for i := 0; i < m.cfg.RefineSteps; i++ { // want unrolledloop
		y = y.Mul(0.5).Add(m.layers[i%len(m.layers)].Apply(y).Mul(0.5))
	}
	return y
}

// Normalize rescales outputs; with Clip it also guards against blow-ups.
func (m *Model) Normalize(x jit.Array) jit.Array {
	if m.cfg.Clip && x.Abs().MaxReduce().Item() > 10 { // want tracedbool
		x = x.Div(10)
	}
	return x.Div(x.Pow(2).Mean().Add(1e-6).Sqrt())
}

// NormalizeSafe clips with Where.
func (m *Model) NormalizeSafe(x jit.Array) jit.Array {
	if m.cfg.Clip {
		big := x.Abs().MaxReduce().Gt(10)
		x = jit.Where(big, x.Div(10), x)
	}
	return x.Div(x.Pow(2).Mean().Add(1e-6).Sqrt())
}

func input(batch, width int, seed float64) jit.Array {
	v := make([]float32, batch*width)
	for i := range v {
		v[i] = float32(math.Cos(float64(i)*0.7 + seed))
	}
	return jit.FromSlice(v, batch, width)
}

func main() {
	cfg := Config{Width: 8, Layers: 4, RefineSteps: 40, Clip: true, Act: "relu"}
	m := NewModel(cfg)

	// Serving: a new method value per request.
	for req := 0; req < 6; req++ {
		temp := 1.0
		fwd := jit.Jit(func(x jit.Array) jit.Array { return m.Forward(x).Div(temp) }) // want staticargs
		out := fwd.Call(input(4, cfg.Width, float64(req)))
		fmt.Printf("req %d: out[0]=%.4f\n", req, out.Float32s()[0])
	}

	// Serving, fixed: one wrapper of the method value, kept.
	fwd := jit.Jit(m.Forward)
	for req := 0; req < 6; req++ {
		fwd.Call(input(4, cfg.Width, float64(req)))
	}

	// Layer by layer through the method expression: one shared cache, and
	// two activations (static) that repeat.
	for req := 0; req < 4; req++ {
		apply := jit.Jit(Layer.Apply)
		x := input(4, cfg.Width, float64(req))
		for _, act := range []string{"relu", "softplus"} {
			l := m.layers[0]
			l.Act = act
			x = apply.Call(l, x)
		}
	}
	fmt.Println("layer signatures:", len(jit.Jit(Layer.Apply).Signatures()))

	refine := jit.Jit(m.Refine)
	fmt.Printf("refined: %.4f\n", refine.Call(input(2, cfg.Width, 0)).Sum().Item())

	safe := jit.Jit(m.NormalizeSafe)
	fmt.Printf("normalized rms: %.3f\n", safe.Call(input(2, cfg.Width, 1)).Pow(2).Mean().Sqrt().Item())

	// The original Normalize, kept for comparison: its trace fails.
	norm := jit.Jit(m.Normalize)
	fmt.Printf("normalized (host clip): %v\n", norm.Call(input(2, cfg.Width, 1)))
}
