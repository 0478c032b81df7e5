// Package lib holds preprocessing helpers shared by the feature jobs.
package lib

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Verbose turns on Logf.
var Verbose = true

// Logf prints a progress message.
func Logf(format string, args ...any) {
	if Verbose {
		fmt.Printf("[lib] "+format+"\n", args...)
	}
}

// Standardize centres x and divides by its standard deviation, skipping the
// division for (nearly) constant inputs.
func Standardize(x jit.Array) jit.Array {
	c := x.Sub(x.Mean())
	std := c.Pow(2).Mean().Sqrt()
	if std.Item() < 1e-6 {
		return c
	}
	return c.Div(std)
}

// StandardizeSafe is Standardize without a host branch.
func StandardizeSafe(x jit.Array) jit.Array {
	c := x.Sub(x.Mean())
	std := c.Pow(2).Mean().Sqrt()
	return c.Div(std.Max(1e-6))
}

// Flatten2D reshapes any input to 2-D [rows, cols], deciding on the rank,
// which is known while tracing.
func Flatten2D(x jit.Array) jit.Array {
	switch x.Ndim() {
	case 0:
		return x.Reshape(1, 1)
	case 1:
		return x.Reshape(1, -1)
	case 2:
		return x
	}
	return x.Reshape(x.Shape()[0], -1)
}
