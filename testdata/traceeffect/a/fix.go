package a

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Two prints of traced values, fmt stays for the static one.
func Two(x jit.Array) jit.Array {
	fmt.Printf("x = %v\n", x)             // want `fmt.Printf runs once per trace`
	fmt.Printf("sum = %v\n", x.Sum())     // want `fmt.Printf runs once per trace`
	fmt.Printf("shape = %v\n", x.Shape()) // want `fmt.Printf runs once per trace`
	return x
}

var two = jit.Jit(Two)
