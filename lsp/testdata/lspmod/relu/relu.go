// Package relu is the sample package the jitls tests and the Neovim
// end-to-end test open: one function with a host branch on a traced value
// (ReluBad), one written the jit way, and directive examples.
package relu

import "github.com/jitlint/jitlint/jit"

// ReluBad branches on a traced value: tracing it fails.
func ReluBad(x jit.Array) jit.Array {
	if x.Gt(0).Bool() {
		return x
	}
	return x.Mul(0)
}

// ReluWhere computes both branches and selects elementwise.
//
//jit:args f32[5]
func ReluWhere(x jit.Array) jit.Array {
	return jit.Where(x.Gt(0), x, 0.0)
}

// Power squares x n times; n is static.
//
//jit:args 3, f32[4]
func Power(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ {
		x = x.Mul(x)
	}
	return x
}

var (
	reluBad   = jit.Jit(ReluBad)
	reluWhere = jit.Jit(ReluWhere)
	power     = jit.Jit(Power, jit.StaticArgnums(0))
)
