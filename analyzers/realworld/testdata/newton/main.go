// Command newton solves x*x = a elementwise with Newton's method, first
// with a fixed Go loop inside the traced function, then with
// jit.WhileLoop.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func update(x, a jit.Array) jit.Array {
	return x.Sub(x.Mul(x).Sub(a).Div(x.Mul(2)))
}

// sqrtFixed runs 40 Newton steps; update stages them.
func sqrtFixed(a jit.Array) jit.Array {
	x := a.Add(1)
	for it := 0; it < 40; it++ { // want unrolledloop
		x = update(x, a)
	}
	return x
}

type state struct{ X, A, Delta jit.Array }

// sqrtWhile stops when the step is small: the loop is part of the program.
func sqrtWhile(a jit.Array) jit.Array {
	s := jit.WhileLoop(
		func(s state) jit.Array { return s.Delta.MaxReduce().Gt(1e-6) },
		func(s state) state {
			next := update(s.X, s.A)
			return state{next, s.A, next.Sub(s.X).Abs()}
		},
		state{a.Add(1), a, jit.Full(1, jit.Float32, 3)},
	)
	return s.X
}

func main() {
	a := jit.FromSlice([]float32{2, 9, 10})
	fixed := jit.Jit(sqrtFixed)
	while := jit.Jit(sqrtWhile)
	for range 3 {
		fmt.Println(fixed.Call(a), while.Call(a))
	}
	x := a.Add(1)
	for it := 0; it < 40; it++ {
		x = update(x, a)
	}
	fmt.Println("eager:", x)
}
