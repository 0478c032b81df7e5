// Command polynomial evaluates polynomials by Horner's rule: a cubic with
// its four coefficients, and a series whose 50 coefficients come from data.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

func horner(coeffs []float64, x jit.Array) jit.Array {
	acc := jit.Zeros(jit.Float32, x.Shape()...)
	for _, c := range coeffs { // want unrolledloop
		acc = acc.Mul(x).Add(c)
	}
	return acc
}

func cubic(x jit.Array) jit.Array {
	acc := jit.Zeros(jit.Float32, x.Shape()...)
	for _, c := range [4]float64{1, -2, 0.5, 3} {
		acc = acc.Mul(x).Add(c)
	}
	return acc
}

func main() {
	series := make([]float64, 50)
	for i := range series {
		series[i] = math.Pow(-1, float64(i)) / float64(i+1)
	}
	x := jit.FromSlice([]float32{0.1, 0.2, 0.3})
	f := jit.Jit(func(x jit.Array) jit.Array { return horner(series, x) })
	g := jit.Jit(cubic)
	for range 3 {
		fmt.Println(f.Call(x), g.Call(x))
	}
}
