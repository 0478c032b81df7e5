// Command ode integrates dy/dt = -k*y with Euler steps in a jit.ForiLoop,
// sweeping the step size as a static argument.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// solve takes 100 Euler steps of size dt (a static argument: it is a Go
// float used in the trace).
func solve(dt float64, y0 jit.Array) jit.Array {
	return jit.ForiLoop(0, 100, func(i jit.Array, y jit.Array) jit.Array {
		return y.Sub(y.Mul(0.5 * dt))
	}, y0)
}

func main() {
	y0 := jit.FromSlice([]float32{1, 2, 4})
	opts := []jit.Option{jit.StaticArgnums(0)}
	f := jit.Jit(solve, opts...)
	for _, dt := range []float64{0.1, 0.05, 0.02, 0.01, 0.005} {
		y := f.Call(dt, y0) // want staticargs
		fmt.Printf("dt=%g y(T)=%v\n", dt, y)
	}
	final := f.Call(0.001, y0)
	fmt.Println("final:", final)
}
