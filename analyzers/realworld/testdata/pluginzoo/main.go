// pluginzoo dispatches inference requests to models looked up by name in a
// registry that model files fill in init().
package main

import (
	"errors"
	"fmt"
	"strings"

	"corpus/pluginzoo/zoo"

	"github.com/jitlint/jitlint/jit"
)

type newtonSqrt struct{ iters int }

func (n newtonSqrt) Name() string { return "newton" }

// Predict refines sqrt(x) with Newton steps, written as a plain Go loop.
func (n newtonSqrt) Predict(x jit.Array) jit.Array {
	y := x.Add(1).Mul(0.5)
	for i := 0; i < n.iters; i++ { // want unrolledloop
		y = y.Add(x.Div(y)).Mul(0.5)
	}
	return y
}

type horner struct{ coeffs []float64 }

func (h horner) Name() string { return "horner" }

// Predict evaluates a fixed polynomial; 32 coefficients, unrolled on purpose.
func (h horner) Predict(x jit.Array) jit.Array {
	acc := jit.Zeros(jit.Float32, x.Shape()...)
	for i := 0; i < len(h.coeffs); i++ {
		acc = acc.Mul(x.Mul(0.1)).Add(h.coeffs[i])
	}
	return acc
}

type medianClip struct{}

func (medianClip) Name() string { return "medianclip" }

// Predict clips at the median, which someone computed on the host.
func (medianClip) Predict(x jit.Array) jit.Array {
	vals := x.Float32s() // want tracedbool
	mid := vals[len(vals)/2]
	return x.Min(float64(mid))
}

type ema struct{ alpha float64 }

func (e ema) Name() string { return "ema" }

// Predict runs an exponential moving average as a real loop primitive.
func (e ema) Predict(x jit.Array) jit.Array {
	return jit.ForiLoop(0, 100, func(i jit.Array, acc jit.Array) jit.Array {
		return acc.Mul(1 - e.alpha).Add(x.Mul(e.alpha))
	}, jit.Zeros(jit.Float32, x.Shape()...))
}

func init() {
	zoo.Register("newton", func(c zoo.Config) zoo.Model { return newtonSqrt{iters: 16 * c.Depth} })
	zoo.Register("horner", func(zoo.Config) zoo.Model {
		cs := make([]float64, 32)
		for i := range cs {
			cs[i] = 1 / float64(i+1)
		}
		return horner{coeffs: cs}
	})
	zoo.Register("medianclip", func(zoo.Config) zoo.Model { return medianClip{} })
	zoo.Register("ema", func(c zoo.Config) zoo.Model { return ema{alpha: 0.05 * c.Scale} })
}

// Normalize is shared preprocessing for every model.
func Normalize(x jit.Array) jit.Array {
	return x.Sub(x.Mean()).Div(x.Abs().MaxReduce().Add(1e-6))
}

type request struct {
	model string
	n     int
}

// server keeps one jitted predictor per model name.
type server struct {
	predictors map[string]*jit.Func[func(jit.Array) jit.Array]
}

func (s *server) predictor(name string) (*jit.Func[func(jit.Array) jit.Array], error) {
	if p, ok := s.predictors[name]; ok {
		return p, nil
	}
	m, err := zoo.New(name, zoo.WithDepth(3))
	if err != nil {
		return nil, err
	}
	p := jit.Jit(m.Predict, jit.Name(m.Name()))
	s.predictors[name] = p
	return p, nil
}

func (s *server) handle(req request) (out float64, err error) {
	defer func() {
		if v := recover(); v != nil {
			var jerr *jit.Error
			if e, ok := v.(error); ok && errors.As(e, &jerr) {
				err = fmt.Errorf("%s: %v", req.model, jerr.Kind)
				return
			}
			panic(v)
		}
	}()
	x := jit.Arange(req.n, jit.Float32).Add(1)
	x = jit.Jit(Normalize).Call(x).Add(2)
	p, err := s.predictor(req.model)
	if err != nil {
		return 0, err
	}
	return p.Call(x).Mean().Item(), nil
}

func main() {
	fmt.Println("registered:", strings.Join(zoo.Names(), ", "))
	s := &server{predictors: map[string]*jit.Func[func(jit.Array) jit.Array]{}}
	reqs := []request{}
	for i := 0; i < 6; i++ {
		for _, name := range []string{"newton", "horner", "ema"} {
			reqs = append(reqs, request{model: name, n: 16})
		}
	}
	reqs = append(reqs, request{model: "medianclip", n: 16}, request{model: "nope", n: 16})
	for i, r := range reqs {
		v, err := s.handle(r)
		if err != nil {
			fmt.Printf("req %d: error %v\n", i, err)
			continue
		}
		if i < 3 {
			fmt.Printf("req %d: %s -> %.4f\n", i, r.model, v)
		}
	}

	// The residual stack is rebuilt for every request so that each caller can pick
	// its own input scale.
	total := 0.0
	for i := 0; i < 6; i++ {
		m, _ := zoo.New("resstack", zoo.WithDepth(48), zoo.WithScale(1))
		f := jit.Jit(func(x jit.Array) jit.Array { return m.Predict(x) }) // want staticargs unrolledloop
		total += f.Call(jit.Ones(jit.Float32, 32)).Item()
	}
	fmt.Printf("resstack total: %.4f\n", total)

	shallow, _ := zoo.New("resstack", zoo.WithDepth(32))
	fshallow := jit.Jit(shallow.Predict)
	for i := 0; i < 4; i++ {
		total += fshallow.Call(jit.Full(float64(i), jit.Float32, 32)).Item()
	}
	fmt.Printf("with shallow: %.4f\n", total)
}
