// Package helpers prints from exported helpers.
package helpers

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Show prints its argument.
func Show(label string, x jit.Array) jit.Array { // want Show:`param -1 at helpers.go:12: fmt.Printf runs once per trace`
	fmt.Printf("%s: %v\n", label, x)
	return x
}

// Quiet does not print.
func Quiet(x jit.Array) jit.Array { return x.Neg() } // want Quiet:`stages 1 ops; returns array:Neg`
