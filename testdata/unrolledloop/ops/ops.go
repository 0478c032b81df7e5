// Package ops has helpers that stage operations; the traced analyzer
// exports that as facts for the packages that loop over them.
package ops

import "github.com/jitlint/jitlint/jit"

// Step stages four operations.
func Step(x jit.Array) jit.Array { // want Step:`stages 4 ops`
	return x.Sin().Mul(x.Cos()).Add(1)
}

// Twice stages Step twice.
func Twice(x jit.Array) jit.Array { // want Twice:`stages 8 ops`
	return Step(Step(x))
}

// Count stages nothing.
func Count(n int) int { return n + 1 } // want Count:`returns \+\(p0 1\)`
