package fixone

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Debug prints a traced value: the fix prints at run time and drops fmt.
func Debug(x jit.Array) jit.Array {
	y := x.Sin()
	fmt.Printf("y = %v\n", y) // want `fmt.Printf runs once per trace`
	return y
}

var debug = jit.Jit(Debug)
