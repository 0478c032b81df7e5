// Command mapgeneric transforms slices of arrays with small generic helpers
// in traced code: Map over a 36-frame clip (one staged op per frame), and
// Fold over three colour channels.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Map applies f to every element.
func Map[T any](xs []T, f func(T) T) []T {
	out := make([]T, len(xs))
	for i, x := range xs { // want unrolledloop
		out[i] = f(x)
	}
	return out
}

// Fold combines the elements left to right.
func Fold[T, A any](xs []T, acc A, f func(A, T) A) A {
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

func brighten(frame jit.Array) jit.Array { return frame.Mul(1.2).Min(1) }

// clip brightens every frame and averages them.
func clip(frames []jit.Array) jit.Array {
	out := Map(frames, brighten)
	return jit.Concatenate(0, out...).Mean(0)
}

// gray averages the channels.
func gray(channels []jit.Array) jit.Array {
	return Fold(channels, jit.Zeros(jit.Float32, 4, 4), func(acc, c jit.Array) jit.Array {
		return acc.Add(c.Mul(1.0 / 3))
	})
}

func main() {
	frames := make([]jit.Array, 36)
	for t := range frames {
		frames[t] = jit.Full(float64(t)/36, jit.Float32, 1, 4)
	}
	channels := []jit.Array{jit.Ones(jit.Float32, 4, 4), jit.Zeros(jit.Float32, 4, 4), jit.Full(0.5, jit.Float32, 4, 4)}
	f, g := jit.Jit(clip), jit.Jit(gray)
	for range 3 {
		fmt.Println(f.Call(frames).Sum().Item(), g.Call(channels).Sum().Item())
	}
}
