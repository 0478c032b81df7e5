// Package cross calls helpers from traced code.
package cross

import (
	"fixtures/tracedbool/helpers"

	"github.com/jitlint/jitlint/jit"
)

// F calls helpers with traced arguments.
func F(x jit.Array) jit.Array {
	if helpers.Positive(x) { // want `helpers.Positive receives a traced value here, and at helpers.go:9: x.Sum\(\).Gt\(0\).Bool\(\) converts`
		x = x.Neg()
	}
	y := helpers.Scale(2, x, x) // want `helpers.Scale receives a traced value here, and at helpers.go:14: z.Item\(\) converts`
	y = helpers.Indirect(y)     // want `helpers.Indirect receives a traced value here`
	return helpers.Clean(y)
}

var f = jit.Jit(F)

// G passes only a concrete array in the converted position: nothing.
func G(x jit.Array) jit.Array {
	c := jit.FromSlice([]float32{0, 1, 2}) // concrete even while tracing
	return helpers.Scale(2, x, c)
}

var g = jit.Jit(G)

// Eager calls the helpers outside traced code: nothing.
func Eager() bool {
	return helpers.Positive(jit.Arange(3, jit.Float32))
}

// Jitted traces another package's function directly.
var jitted = jit.Jit(helpers.Positive) // want `helpers.Positive receives a traced value here`

// H passes a traced value to a helper that helpers also traces itself.
func H(x jit.Array) jit.Array {
	return x.Mul(helpers.Ratio(x)) // want `helpers.Ratio receives a traced value here, and at realworld.go:9: x.Item\(\) converts`
}

var h = jit.Jit(H)
