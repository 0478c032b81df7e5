package a

import "github.com/jitlint/jitlint/jit"

// Which functions are traced: function values kept in tables, variables
// and fields, closures returned by a constructor, interface calls.

var steps = map[string]func(jit.Array) jit.Array{
	"sin": func(x jit.Array) jit.Array {
		for i := 0; i < 100; i++ { // want `unrolled into the trace 100 times`
			x = x.Sin()
		}
		return x
	},
	"id": func(x jit.Array) jit.Array { return x },
}

func runTable(name string, x jit.Array) {
	f := jit.Jit(steps[name])
	f.Call(x)
}

func makeDecay(rate float64) func(jit.Array) jit.Array {
	return func(x jit.Array) jit.Array {
		for i := 0; i < 200; i++ { // want `unrolled into the trace 200 times`
			x = x.Mul(rate)
		}
		return x
	}
}

var decay = jit.Jit(makeDecay(0.9))

type rwBlock interface{ forward(x jit.Array) jit.Array }

type rwRepeat struct{}

func (rwRepeat) forward(x jit.Array) jit.Array {
	for i := 0; i < 33; i++ { // want `unrolled into the trace 33 times`
		x = x.Cos()
	}
	return x
}

type rwModel struct {
	b   rwBlock
	act func(jit.Array) jit.Array
}

func (m rwModel) Forward(x jit.Array) jit.Array { return m.act(m.b.forward(x)) }

var forward = jit.Jit(rwModel{b: rwRepeat{}, act: softsign}.Forward)

var softsign = func(x jit.Array) jit.Array {
	for i := 0; i < 48; i++ { // want `unrolled into the trace 48 times`
		x = x.Div(x.Abs().Add(1))
	}
	return x
}
