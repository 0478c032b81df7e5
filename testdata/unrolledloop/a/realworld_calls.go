package a

import (
	"fixtures/unrolledloop/ops"

	"github.com/jitlint/jitlint/jit"
)

// Loops whose bodies stage operations only through calls are unrolled all
// the same: a package function, a method, a helper of another package.

func rnnCell(h, x jit.Array) jit.Array { return h.Mul(0.5).Add(x).Tanh() }

// Unroll100 calls a package function.
func Unroll100(h, x jit.Array) jit.Array {
	for t := 0; t < 100; t++ { // want `loop is unrolled into the trace 100 times → about 300 equations`
		h = rnnCell(h, x)
	}
	return h
}

var unroll100 = jit.Jit(Unroll100)

type cell struct{ w jit.Array }

func (c cell) apply(h jit.Array) jit.Array { return h.MatMul(c.w).Tanh() }

// Method calls a method of a captured model.
func (c cell) Method(h jit.Array) jit.Array {
	for t := 0; t < 50; t++ { // want `unrolled into the trace 50 times → about 100 equations`
		h = c.apply(h)
	}
	return h
}

var method = jit.Jit(cell{}.Method)

// Other calls a helper of another package (known from its fact).
func Other(x jit.Array) jit.Array {
	for i := 0; i < 40; i++ { // want `unrolled into the trace 40 times → about 320 equations`
		x = ops.Twice(x)
	}
	return x
}

var other = jit.Jit(Other)

// PureHelper calls a helper that stages nothing: not reported.
func PureHelper(x jit.Array) jit.Array {
	k := 0
	for i := 0; i < 1000; i++ {
		k = ops.Count(k)
	}
	return x.Add(k)
}

var pureHelper = jit.Jit(PureHelper)
