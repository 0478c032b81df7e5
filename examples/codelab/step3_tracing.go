package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// F is x**2 + 1 with a host print inside: the print runs while tracing, not
// when the compiled program runs, so it shows when (re)tracing happens.
func F(x jit.Array) jit.Array {
	fmt.Printf("tracing with shape=%v dtype=%s\n", x.Shape(), x.Dtype().Name())
	return x.Pow(2).Add(1)
}

func step3() {
	f := jit.Jit(F)
	fmt.Println("call 1 (f32[4]):")
	fmt.Println(" ", f.Call(jit.Arange(4, jit.Float32)))
	fmt.Println("call 2 (f32[4], cached: no print):")
	fmt.Println(" ", f.Call(jit.Arange(4, jit.Float32).Add(1)))
	fmt.Println("call 3 (f32[5], new shape: traced again):")
	fmt.Println(" ", f.Call(jit.Arange(5, jit.Float32)))
	s := f.Stats()
	fmt.Printf("traces=%d compiles=%d cache hits=%d\n", s.Traces, s.Compiles, s.Hits)
}
