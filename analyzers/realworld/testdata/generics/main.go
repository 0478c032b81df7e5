// Command generics uses generic helpers over arrays: a sum over a slice
// built from the data, and a clip with a Go number type parameter.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func sumAll[S ~[]jit.Array](xs S) jit.Array {
	acc := xs[0]
	for _, x := range xs[1:] { // want unrolledloop
		acc = acc.Add(x)
	}
	return acc
}

func clip[T float32 | float64](x jit.Array, lo, hi T) jit.Array {
	return x.Max(float64(lo)).Min(float64(hi))
}

type batch []jit.Array

func total(b batch) jit.Array { return clip(sumAll(b), float32(-10), float32(10)) }

func main() {
	var b batch
	for i := range 40 {
		b = append(b, jit.Full(float64(i)/40, jit.Float32, 4))
	}
	f := jit.Jit(total)
	for range 3 {
		fmt.Println(f.Call(b))
	}
}
