package a

import "github.com/jitlint/jitlint/jit"

// A pointer to a struct is a pytree node: its `jit:"static"` fields are
// static, part of the signature, so a loop over one is not a loop over a
// traced argument (a method expression jitted with its receiver as the
// first argument).

type srMLP struct {
	Depth int `jit:"static"`
}

func (m *srMLP) Apply(x jit.Array) jit.Array {
	for i := 0; i < m.Depth; i++ { // not reported: 2 at the call
		x = x.Tanh().Mul(float64(i + 1))
	}
	return x
}

var srApply = jit.Jit((*srMLP).Apply)

func srRun(x jit.Array) jit.Array {
	return srApply.Call(&srMLP{Depth: 2}, x)
}
