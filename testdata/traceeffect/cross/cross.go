// Package cross calls a printing helper from traced code.
package cross

import (
	"fixtures/traceeffect/helpers"

	"github.com/jitlint/jitlint/jit"
)

// F shows a traced value through helpers.
func F(x jit.Array) jit.Array {
	y := helpers.Show("x", x) // want `helpers.Show receives a traced value here, and at helpers.go:12: fmt.Printf runs once per trace`
	return helpers.Quiet(y)
}

var f = jit.Jit(F)

// Eager shows a concrete value: fine.
func Eager() { helpers.Show("x", f.Call(jit.Arange(3, jit.Float32))) }
