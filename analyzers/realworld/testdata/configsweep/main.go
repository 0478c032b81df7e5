// Command configsweep runs a small hyper-parameter sweep: a grid of MLP
// configurations (width, depth, layer norm, activation) is trained on a toy
// regression problem, each configuration with its own jitted train step,
// then the best linear baseline is fine-tuned under two learning-rate
// schedules.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Config is one point of the sweep.
type Config struct {
	Hidden  int
	Depth   int
	UseNorm bool
	Act     string
}

func (c Config) String() string {
	return fmt.Sprintf("h=%d d=%d norm=%v act=%s", c.Hidden, c.Depth, c.UseNorm, c.Act)
}

// Layer is one dense layer.
type Layer struct {
	W, B jit.Array
}

// Params are an MLP's parameters.
type Params struct {
	Layers []Layer
	Out    Layer
}

// ArchSpec describes an MLP by its layer widths (for the report).
type ArchSpec struct {
	Widths []int
	Act    string
}

const (
	nSamples = 16
	nIn      = 4
	steps    = 10
)

func pseudo(i, salt int) float32 {
	return float32(math.Sin(float64(i)*12.9898+float64(salt)*4.1414) * 0.5)
}

func dense(in, out, salt int) Layer {
	w := make([]float32, in*out)
	for i := range w {
		w[i] = pseudo(i, salt) / float32(math.Sqrt(float64(in)))
	}
	return Layer{W: jit.FromSlice(w, in, out), B: jit.Zeros(jit.Float32, out)}
}

func initParams(cfg Config) Params {
	p := Params{Out: dense(cfg.Hidden, 1, 99)}
	in := nIn
	for l := 0; l < cfg.Depth; l++ {
		p.Layers = append(p.Layers, dense(in, cfg.Hidden, l+1))
		in = cfg.Hidden
	}
	return p
}

func data() (jit.Array, jit.Array) {
	x := make([]float32, nSamples*nIn)
	y := make([]float32, nSamples)
	for i := 0; i < nSamples; i++ {
		var t float32
		for j := 0; j < nIn; j++ {
			x[i*nIn+j] = pseudo(i*nIn+j, 7) * 2
			t += x[i*nIn+j] * float32(j+1)
		}
		y[i] = float32(math.Tanh(float64(t)))
	}
	return jit.FromSlice(x, nSamples, nIn), jit.FromSlice(y, nSamples, 1)
}

func activate(act string, h jit.Array) jit.Array {
	switch act {
	case "relu":
		return jit.Relu(h)
	default:
		return h.Tanh()
	}
}

// Forward runs the MLP of cfg.
func Forward(cfg Config, p Params, x jit.Array) jit.Array {
	fmt.Printf("building forward pass for %v\n", cfg) // want traceeffect
	h := x
	for l := 0; l < cfg.Depth; l++ {
		h = h.MatMul(p.Layers[l].W).Add(p.Layers[l].B)
		if cfg.UseNorm {
			n := h.Shape()[0]
			mu := h.Mean(1).Reshape(n, 1)
			h = h.Sub(mu).Mul(h.Sub(mu).Pow(2).Mean(1).Add(1e-5).Rsqrt().Reshape(n, 1))
		}
		h = activate(cfg.Act, h)
	}
	return h.MatMul(p.Out.W).Add(p.Out.B)
}

// TrainStep is one SGD step on the mean squared error; lr is traced.
func TrainStep(cfg Config, lr jit.Array, p Params, x, y jit.Array) (Params, jit.Array) {
	loss := func(p Params) jit.Array { return Forward(cfg, p, x).Sub(y).Pow(2).Mean() }
	vg := jit.ValueAndGrad[func(Params) (jit.Array, Params)](loss)
	l, g := vg(p)
	next := Params{Out: Layer{W: p.Out.W.Sub(g.Out.W.Mul(lr)), B: p.Out.B.Sub(g.Out.B.Mul(lr))}}
	for i, layer := range p.Layers {
		next.Layers = append(next.Layers, Layer{
			W: layer.W.Sub(g.Layers[i].W.Mul(lr)),
			B: layer.B.Sub(g.Layers[i].B.Mul(lr)),
		})
	}
	return next, l
}

// linearGrad is the gradient of the mean squared error of x @ w against y.
func linearGrad(w, x, y jit.Array) jit.Array {
	n := float64(x.Shape()[0])
	return x.Transpose().MatMul(x.MatMul(w).Sub(y)).Mul(2 / n)
}

// SGDStep is one step of the linear baseline at learning rate lr.
func SGDStep(lr float64, w, x, y jit.Array) jit.Array {
	return w.Sub(linearGrad(w, x, y).Mul(lr))
}

// TrainChunk runs inner SGD steps of the linear baseline in one call.
func TrainChunk(inner int, lr, w, x, y jit.Array) jit.Array {
	for s := 0; s < inner; s++ { // want unrolledloop
		w = w.Sub(linearGrad(w, x, y).Mul(lr))
	}
	return w
}

// paramCount is the number of parameters of an MLP with these widths.
func paramCount(widths []int) int {
	total := 0
	in := nIn
	for _, w := range widths {
		total += in*w + w
		in = w
	}
	return total + in + 1
}

// Describe scales x by the parameter count of an architecture.
func Describe(spec ArchSpec, x jit.Array) jit.Array {
	return x.Mul(float64(paramCount(spec.Widths)))
}

func mse(w, x, y jit.Array) float64 { return x.MatMul(w).Sub(y).Pow(2).Mean().Item() }

func main() {
	x, y := data()
	var grid []Config
	for _, h := range []int{8, 16} {
		for _, d := range []int{2, 4} {
			for _, norm := range []bool{false, true} {
				grid = append(grid, Config{Hidden: h, Depth: d, UseNorm: norm, Act: "tanh"})
			}
		}
	}
	grid = append(grid, Config{Hidden: 8, Depth: 2, Act: "relu"})

	step := jit.Jit(TrainStep, jit.StaticArgnums(0))
	lr := jit.Scalar(float32(0.05))
	bestCfg, bestLoss := Config{}, math.Inf(1)
	for _, cfg := range grid {
		p := initParams(cfg)
		var loss jit.Array
		for s := 0; s < steps; s++ {
			p, loss = step.Call(cfg, lr, p, x, y)
		}
		l := loss.Item()
		widths := make([]int, cfg.Depth)
		for i := range widths {
			widths[i] = cfg.Hidden
		}
		fmt.Printf("%-28v %4d params, final loss %.4f\n", cfg, paramCount(widths), l)
		if l < bestLoss {
			bestCfg, bestLoss = cfg, l
		}
	}
	fmt.Printf("best: %v (%.4f); sweep compiled %d train steps for %d calls\n",
		bestCfg, bestLoss, step.Stats().Compiles, len(grid)*steps)

	sgd := jit.Jit(SGDStep, jit.StaticArgnums(0))
	w := jit.Zeros(jit.Float32, nIn, 1)
	for s := 0; s < 12; s++ {
		eta := 0.05 * 0.5 * (1 + math.Cos(math.Pi*float64(s)/12))
		w = sgd.Call(eta, w, x, y) // want staticargs
	}
	fmt.Printf("cosine schedule: mse %.4f, compiles %d\n", mse(w, x, y), sgd.Stats().Compiles)

	w = jit.Zeros(jit.Float32, nIn, 1)
	piecewise := []float64{0.1, 0.05, 0.01}
	for s := 0; s < 30; s++ {
		w = sgd.Call(piecewise[s/10], w, x, y)
	}
	fmt.Printf("step schedule: mse %.4f, total compiles %d\n", mse(w, x, y), sgd.Stats().Compiles)

	chunk := jit.Jit(TrainChunk, jit.StaticArgnums(0))
	w = chunk.Call(40, jit.Scalar(float32(0.05)), jit.Zeros(jit.Float32, nIn, 1), x, y)
	fmt.Printf("one chunk of 40 steps: mse %.4f\n", mse(w, x, y))

	describe := jit.Jit(Describe, jit.StaticArgnums(0))
	spec := ArchSpec{Widths: []int{bestCfg.Hidden, bestCfg.Hidden}, Act: bestCfg.Act}
	fmt.Println("parameter count:", describe.Call(spec, jit.Ones(jit.Float32)).Item()) // want staticargs
}
