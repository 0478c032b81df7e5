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

// diffuse loops as many times as its traced caller says.
func diffuse(x jit.Array, steps int) jit.Array {
	for i := 0; i < steps; i++ { // want `loop is unrolled into the trace up to 500 times \(static argument iters is 500 at realworld_calls.go:\d+\) → about 1000 equations`
		x = x.Add(x.Sin())
	}
	return x
}

// Simulate passes its static iters on to diffuse.
func Simulate(iters int, x jit.Array) jit.Array { return diffuse(x, iters) }

var simulate = jit.Jit(Simulate, jit.StaticArgnums(0))

func runSimulate(x jit.Array) { simulate.Call(500, x) }

// smooth is called from traced code with a constant above the limit.
func smooth(x jit.Array, k int) jit.Array {
	for i := 0; i < k; i++ { // want `loop is unrolled into the trace up to 64 times \(k is 64 at realworld_calls.go:\d+\)`
		x = x.Mul(0.5)
	}
	return x
}

// Filter calls smooth with 64, and with 4 (small: fine).
func Filter(x jit.Array) jit.Array { return smooth(smooth(x, 4), 64) }

var filter = jit.Jit(Filter)
