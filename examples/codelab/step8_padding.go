package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// MaxLen is the fixed padded length: every sequence is padded to it, so
// MaskedMean compiles once.
const MaxLen = 16

// MaskedMean averages the elements of x where mask is 1.
func MaskedMean(x, mask jit.Array) jit.Array {
	return x.Mul(mask).Sum().Div(mask.Sum().Max(1))
}

// Power squares x n times; n is static: the Go loop is unrolled for each n
// and each new n compiles again.
func Power(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ {
		x = x.Mul(x)
	}
	return x
}

func step8() {
	mean := jit.Jit(MaskedMean)
	for _, seq := range [][]float32{{1, 2, 3}, {10, 10, 10, 10, 10, 10, 10, 10}, {5, -2}} {
		padded, mask, err := jit.PadTo(jit.FromSlice(seq), MaxLen)
		if err != nil {
			panic(err)
		}
		fmt.Printf("mean of %v = %.3f\n", seq, mean.Call(padded, mask).Item())
	}
	if _, _, err := jit.PadTo(jit.Arange(20, jit.Float32), MaxLen); err != nil {
		fmt.Println("too long:", err)
	}
	fmt.Printf("MaskedMean compiles: %d (one for all lengths)\n", mean.Stats().Compiles)

	power := jit.Jit(Power, jit.StaticArgnums(0))
	x := jit.FromSlice([]float32{1, 2, 3})
	fmt.Println("power(2, x) =", power.Call(2, x))
	fmt.Println("power(3, x) =", power.Call(3, x))
	fmt.Println("power(2, x) =", power.Call(2, x))
	s := power.Stats()
	fmt.Printf("static n = 2, 3, 2: compiles=%d cache hits=%d\n", s.Compiles, s.Hits)

	// The step-11 exercise: a static argument that changes on every call
	// compiles on every call (jitlint's staticargs reports it). counter
	// shares power's cache (same function, same options, as in JAX), so
	// n = 2 and 3 would hit: the loop counter starts at 4.
	counter := jit.Jit(Power, jit.StaticArgnums(0))
	for i := 4; i < 7; i++ {
		counter.Call(i, x)
	}
	fmt.Printf("static n from a loop counter, 3 calls: compiles=%d\n", counter.Stats().Compiles)
}
