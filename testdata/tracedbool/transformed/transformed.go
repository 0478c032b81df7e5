// Package transformed: functions passed to jit.Vmap and jit.Grad are traced.
package transformed

import "github.com/jitlint/jitlint/jit"

func relu(x jit.Array) jit.Array {
	if x.Gt(0).Bool() { // want `x.Gt\(0\).Bool\(\) converts a traced value to a Go bool`
		return x
	}
	return jit.Zeros(jit.Float32)
}

var batched = jit.Vmap(relu, jit.InAxes(0))

var grad = jit.Grad[func(jit.Array) jit.Array](func(x jit.Array) jit.Array {
	return x.Mul(x.Sum().Item()) // want `x.Sum\(\).Item\(\) converts a traced value to a Go float64`
})
