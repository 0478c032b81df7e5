// Command sensorpipeline cleans a stream of sensor readings with a
// configurable per-column pipeline. Each column names a transform from a
// registry, a calibration curve built by a factory (a fitted polynomial or
// a piecewise-linear table), and the pipeline holds a clipping hook applied
// before everything else. Pipelines are compiled once per column and then
// applied to every chunk of the stream; a drift monitor compares each chunk
// with a reference chunk.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

type transform = func(jit.Array) jit.Array

var registry = map[string]transform{
	"log1p": func(x jit.Array) jit.Array { return x.Abs().Log1p().Mul(x.Sign()) },
	"tanh":  func(x jit.Array) jit.Array { return x.Mul(0.5).Tanh() },
	"zscore": func(x jit.Array) jit.Array {
		fmt.Printf("zscore over %d readings\n", x.Size()) // want traceeffect
		c := x.Sub(x.Mean())
		return c.Div(c.Mul(c).Mean().Add(1e-6).Sqrt())
	},
}

// polynomial returns Horner's evaluation of c[0] + c[1] x + ... .
func polynomial(c []float64) transform {
	return func(x jit.Array) jit.Array {
		acc := jit.Full(c[len(c)-1], jit.Float32, x.Shape()...)
		for i := len(c) - 2; i >= 0; i-- { // want unrolledloop
			acc = acc.Mul(x).Add(c[i])
		}
		return acc
	}
}

// piecewise returns linear interpolation through the knots (xs ascending).
func piecewise(xs, ys []float64) transform {
	return func(x jit.Array) jit.Array {
		var parts []jit.Array
		out := jit.Full(ys[0], jit.Float32, x.Shape()...)
		for k := 1; k < len(xs); k++ {
			slope := (ys[k] - ys[k-1]) / (xs[k] - xs[k-1])
			seg := x.Max(xs[k-1]).Min(xs[k]).Sub(xs[k-1]).Mul(slope)
			parts = append(parts, seg)
		}
		for _, s := range parts {
			out = out.Add(s)
		}
		return out
	}
}

type Column struct {
	Name, Transform string
	Calibrate       transform
}

type Pipeline struct {
	Hook    transform
	Columns []Column
}

func chain(stages ...transform) transform {
	return func(x jit.Array) jit.Array {
		for _, s := range stages {
			x = s(x)
		}
		return x
	}
}

func (p *Pipeline) compile(c Column) *jit.Func[transform] {
	return jit.Jit(chain(p.Hook, c.Calibrate, registry[c.Transform]))
}

// driftMonitor scores how far a chunk's mean moved from the reference's.
type driftMonitor struct {
	Ref jit.Array
}

func (d *driftMonitor) Score(x jit.Array) jit.Array {
	return x.Mean().Sub(d.Ref.Mean()).Abs()
}

func chunk(col, k, n int) jit.Array {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(math.Sin(float64(i+k*n)*0.37+float64(col)) * (2 + float64(col)))
	}
	return jit.FromSlice(v)
}

func main() {
	coef := make([]float64, 40)
	for i := range coef {
		coef[i] = math.Pow(-1, float64(i)) / math.Pow(2, float64(i))
	}
	p := &Pipeline{
		Hook: func(x jit.Array) jit.Array { return x.Max(-5).Min(5) },
		Columns: []Column{
			{"temperature", "zscore", polynomial(coef)},
			{"humidity", "tanh", piecewise([]float64{-3, -1, 0, 1, 3, 6}, []float64{0, 0.2, 0.5, 0.7, 0.9, 1})},
			{"pressure", "log1p", polynomial([]float64{0.1, 1.02, -0.003})},
		},
	}

	compiled := make(map[string]*jit.Func[transform])
	for _, c := range p.Columns {
		compiled[c.Name] = p.compile(c)
	}
	monitors := make(map[string]*driftMonitor)
	for k := 0; k < 6; k++ {
		for ci, c := range p.Columns {
			out := compiled[c.Name].Call(chunk(ci, k, 32))
			if k == 0 {
				monitors[c.Name] = &driftMonitor{Ref: out}
				continue
			}
			drift := jit.Jit(monitors[c.Name].Score) // want staticargs
			d := drift.Call(out).Item()
			fmt.Printf("chunk %d %-11s mean %+.4f drift %.4f\n", k, c.Name, out.Mean().Item(), d)
		}
	}
	for _, c := range p.Columns {
		fmt.Printf("%s: %d compile(s)\n", c.Name, compiled[c.Name].Stats().Compiles)
	}
}
