package a

import "github.com/jitlint/jitlint/jit"

// A model passed by pointer is a pytree: its array fields are traced in
// the methods jitted as method expressions.

type ptrModel struct {
	W, Temp jit.Array
}

func (m *ptrModel) temperature() float64 {
	return m.Temp.Item() // want `m.Temp.Item\(\) converts a traced value to a Go float64`
}

func (m *ptrModel) Sample(x jit.Array) jit.Array {
	return x.MatMul(m.W).Mul(m.temperature())
}

// Shape is static: not reported.
func (m *ptrModel) Width(x jit.Array) jit.Array {
	return x.Mul(float64(m.W.Shape()[0]))
}

var (
	sampleModel = jit.Jit((*ptrModel).Sample)
	widthModel  = jit.Jit((*ptrModel).Width)
)
