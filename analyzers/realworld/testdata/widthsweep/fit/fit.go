// Package fit holds small helpers shared by training loops.
package fit

import "github.com/jitlint/jitlint/jit"

// Converged reports whether a scalar loss has dropped below tol.
func Converged(loss jit.Array, tol float64) bool {
	return loss.Lt(tol).Bool()
}
