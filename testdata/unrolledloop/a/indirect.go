package a

import "github.com/jitlint/jitlint/jit"

// Steps is jitted and called through a helper, as in the codelab's step 7.
func Steps(steps int, x jit.Array) jit.Array {
	for i := 0; i < steps; i++ { // want `unrolled into the trace up to 500 times \(static argument steps is 500 at indirect.go:21\)`
		x = x.Sin()
	}
	return x
}

func callWith(f func(int, jit.Array) jit.Array, steps int, x jit.Array) jit.Array {
	return f(steps, x)
}

func runSteps() {
	steps := jit.Jit(Steps, jit.StaticArgnums(0))
	x := jit.Arange(4, jit.Float32)
	callWith(steps.Call, 10, x)
	callWith(steps.Call, 500, x)
}

// Few is called through a helper with small values only: nothing.
func Few(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ {
		x = x.Cos()
	}
	return x
}

func twice(f func(int, jit.Array) jit.Array, x jit.Array) jit.Array { return f(2, f(3, x)) }

func runFew() {
	few := jit.Jit(Few, jit.StaticArgnums(0))
	twice(few.Call, jit.Arange(4, jit.Float32))
}
