// Command shapepoly ports a shape-polymorphic layer-norm-and-project
// block: it branches in Go on the rank, the width and the dtype of its
// input (static at trace time), folds a weight-dependent constant into
// the closure on the host before jitting, and finally a variant that
// decides between two branches of jit.Cond by reading a value inside the
// branch.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const chunk = 4

// layerNorm normalises the last axis of a 1-D or 2-D input.
func layerNorm(x jit.Array) jit.Array {
	if x.Ndim() == 1 {
		x = x.Reshape(1, x.Shape()[0])
	}
	if x.Dtype() != jit.Float32 {
		x = x.Astype(jit.Float32)
	}
	rows, width := x.Shape()[0], x.Shape()[1]
	mean := x.Mean(1).Reshape(rows, 1)
	d := x.Sub(mean)
	return d.Mul(d.Mul(d).Mean(1).Reshape(rows, 1).Add(1e-5).Rsqrt()).Mul(1 / float64(width))
}

// project multiplies by w; wide inputs are projected chunk by chunk of
// the width, which the Go if decides from the shape.
func project(x, w jit.Array) jit.Array {
	width := x.Shape()[1]
	if width <= 2*chunk {
		return x.MatMul(w)
	}
	out := jit.Zeros(jit.Float32, x.Shape()[0], w.Shape()[1])
	for c := 0; c < width; c += chunk {
		xs := x.Slice([]int{0, c}, []int{x.Shape()[0], c + chunk})
		ws := w.Slice([]int{c, 0}, []int{c + chunk, w.Shape()[1]})
		out = out.Add(xs.MatMul(ws))
	}
	return out
}

func block(w jit.Array) func(jit.Array) jit.Array {
	// The weights' scale, read on the host once when the block is built.
	scale := w.Abs().MaxReduce().Item()
	return func(x jit.Array) jit.Array {
		return project(layerNorm(x), w).Div(scale)
	}
}

// gated clips the output when it is large, reading the maximum inside the
// branch to pick the clip value.
func gated(x jit.Array) jit.Array {
	y := layerNorm(x)
	return jit.Cond(y.Sum().Gt(0), func(v jit.Array) jit.Array {
		limit := v.MaxReduce().Item() // want tracedbool
		return v.Min(limit / 2)
	}, func(v jit.Array) jit.Array { return v }, y)
}

func main() {
	narrow := jit.Jit(block(jit.Arange(18, jit.Float32).Reshape(6, 3).Mul(0.5)))
	wide := jit.Jit(block(jit.Arange(48, jit.Float32).Reshape(16, 3).Mul(-0.25)))
	for i := range 3 {
		v := jit.Arange(6, jit.Float32).Add(float64(i))
		m := jit.Arange(32, jit.Int32).Reshape(2, 16)
		fmt.Println(narrow.Call(v).Abs().Sum().Item(), wide.Call(m).Abs().Sum().Item())
	}
	fmt.Println(jit.Jit(gated).Call(jit.Arange(8, jit.Float32)))
}
