package a

import "github.com/jitlint/jitlint/jit"

// An interface method jitted or called in traced code, on a receiver whose
// dynamic type is not known here (a model received from a registry or a
// channel), can run the method of any type the package makes values of
// that interface from: each is traced. A type that implements the
// interface but is never made into one is not.

type imModel interface {
	Predict(x jit.Array) jit.Array
}

type imClip struct{}

func (imClip) Predict(x jit.Array) jit.Array {
	vals := x.Float32s() // want `x.Float32s\(\) converts a traced value to a Go \[\]float32`
	return x.Min(float64(vals[0]))
}

type imSin struct{}

func (imSin) Predict(x jit.Array) jit.Array { return x.Sin() }

// imHost is only called on concrete arrays.
type imHost struct{}

func (imHost) Predict(x jit.Array) jit.Array { return x.Min(float64(x.Float32s()[0])) }

func imRegister(ch chan<- imModel) {
	ch <- imClip{}
	ch <- imSin{}
	close(ch)
}

func imServe(ch <-chan imModel, x jit.Array) {
	for m := range ch {
		jit.Jit(m.Predict).Call(x)
	}
	imHost{}.Predict(x)
}
