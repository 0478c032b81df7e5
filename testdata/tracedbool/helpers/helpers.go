// Package helpers has exported helpers that convert their argument; they
// are traced only when another package calls them from traced code.
package helpers

import "github.com/jitlint/jitlint/jit"

// Positive converts its argument to a Go bool.
func Positive(x jit.Array) bool { // want Positive:`param 0 at helpers.go:9: x.Sum\(\).Gt\(0\).Bool\(\) converts`
	return x.Sum().Gt(0).Bool()
}

// Scale converts only its second argument.
func Scale(k float64, y jit.Array, z jit.Array) jit.Array { // want Scale:`param 2 at helpers.go:14: z.Item\(\) converts`
	return y.Mul(k).Add(z.Item())
}

// Indirect converts through an unexported helper.
func Indirect(x jit.Array) jit.Array { // want Indirect:`param 0 at helpers.go:23: x.Int\(\) converts`
	return pick(x)
}

func pick(x jit.Array) jit.Array {
	_ = x.Int()
	return x
}

// Clean does not convert.
func Clean(x jit.Array) jit.Array { return x.Sin() } // want Clean:`stages 1 ops; returns array:Sin`
