package a

import (
	"fixtures/unrolledloop/ops"

	"github.com/jitlint/jitlint/jit"
)

// A loop of another package whose count its caller's argument sets is
// unrolled at the call from traced code that passes the argument: the
// library's fact gives the count in its parameters, the caller substitutes
// its own.

var llDeep = jit.Jit(func(x jit.Array) jit.Array {
	return ops.Repeat(x, 48) // want `ops.Repeat is called here from traced code, and its loop at ops.go:22 is unrolled into the trace 48 times for these arguments`
})

var llShallow = jit.Jit(func(x jit.Array) jit.Array {
	return ops.Repeat(x, 4) // 4 iterations: not reported
})

// The count can be the shape of the array the caller passes.
var llRows = jit.Jit(func(x jit.Array) jit.Array {
	return ops.Rows(jit.Zeros(jit.Float32, 40, 3).Add(x.Sum())) // want `ops.Rows is called here from traced code, and its loop at ops.go:50 is unrolled into the trace 40 times for these arguments`
})

var llFewRows = jit.Jit(func(x jit.Array) jit.Array {
	return ops.Rows(jit.Zeros(jit.Float32, 4, 3).Add(x.Sum())) // 4 rows: not reported
})
