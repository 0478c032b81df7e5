// Command logging prints what a model sees: shapes while tracing (which
// happens once per signature), values with jit.DebugPrint, and results
// outside the jitted function.
package main

import (
	"fmt"
	"os"

	"github.com/jitlint/jitlint/jit"
)

func layer(x jit.Array) jit.Array {
	fmt.Fprintf(os.Stderr, "tracing layer for %v\n", x.Shape()) // want traceeffect
	jit.DebugPrint("layer input {}", x)
	return x.Mul(0.5).Tanh()
}

func main() {
	f := jit.Jit(layer)
	for i := range 4 {
		y := f.Call(jit.Full(float64(i), jit.Float32, 3))
		fmt.Printf("step %d: %v\n", i, y)
	}
}
