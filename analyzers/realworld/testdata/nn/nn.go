// Package nn holds layers that the corpus programs call from traced code.
package nn

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Dense is a fully connected layer with a tanh.
func Dense(x, w jit.Array) jit.Array { return x.MatMul(w).Tanh() }

// Residual adds a dense layer's output to its input.
func Residual(x, w jit.Array) jit.Array { return x.Add(Dense(x, w)) }

// Applied counts the calls of Logged.
var Applied int

// Logged applies tanh and logs the call.
func Logged(x jit.Array) jit.Array {
	fmt.Println("nn: tanh on", x.Shape())
	Applied++
	return x.Tanh()
}
