// Command model keeps a model's weights in a struct and jits its methods
// as method values; one method counts its calls in the receiver.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type Model struct {
	W     jit.Array
	B     jit.Array
	calls int
}

// Forward counts its calls on the model.
func (m *Model) Forward(x jit.Array) jit.Array {
	m.calls++ // want traceeffect
	return x.MatMul(m.W).Add(m.B)
}

// Predict is pure.
func (m *Model) Predict(x jit.Array) jit.Array {
	return m.layer(x).Logistic()
}

func (m *Model) layer(x jit.Array) jit.Array { return x.MatMul(m.W).Add(m.B) }

func main() {
	m := &Model{W: jit.Full(0.1, jit.Float32, 4, 2), B: jit.Zeros(jit.Float32, 2)}
	fwd := jit.Jit(m.Forward)
	pred := jit.Jit(m.Predict)
	x := jit.Ones(jit.Float32, 3, 4)
	for range 5 {
		fwd.Call(x)
		pred.Call(x)
	}
	fmt.Println("calls counted:", m.calls, pred.Call(x))
}
