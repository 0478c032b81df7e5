package a

import (
	"fixtures/unrolledloop/ops"

	"github.com/jitlint/jitlint/jit"
)

// A library loop whose body calls a function its caller passes stages
// what that function stages: unrolled at the call from traced code when
// the function stages operations and the count is long; a generic
// library function's loop the same.

var lcDeep = jit.Jit(func(x jit.Array) jit.Array {
	return ops.Blocks(40, x, func(i int, h jit.Array) jit.Array { // want `ops.Blocks is called here from traced code, and its loop at ops.go:31 is unrolled into the trace 40 times for these arguments`
		return h.Add(h.Sin().Mul(float64(i)))
	})
})

var lcShallow = jit.Jit(func(x jit.Array) jit.Array {
	return ops.Blocks(4, x, func(_ int, h jit.Array) jit.Array { return h.Sin() }) // 4 iterations: not reported
})

var lcNothing = jit.Jit(func(x jit.Array) jit.Array {
	n := 0
	ops.Blocks(40, x, func(_ int, h jit.Array) jit.Array { n++; return h }) // its function stages nothing: not reported
	return x.Mul(float64(n))
})

var lcWindows = jit.Jit(func(x jit.Array) jit.Array {
	cols := ops.MapAll(make([]int, 36), func(i int) jit.Array { // want `ops.MapAll is called here from traced code, and its loop at ops.go:40 is unrolled into the trace 36 times for these arguments`
		return x.Mul(float64(i)).Sum()
	})
	return jit.Concatenate(0, cols...)
})
