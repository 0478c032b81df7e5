// Package codelab traces, with package jit, the codelab's functions
// (x**2+1, heavy, sum(x**2), where, cond, the unrolled loop and its scan,
// masked mean, power, make_jaxpr's example) plus a few shape-heavy ones,
// and gives their arguments. The gpu tests use them for golden PTX and
// correctness against the reference evaluator, and the GPU check program
// runs them on a device.
package codelab

import "github.com/jitlint/jitlint/jit/ir"

// Arange returns f32 [0, 1, ..., n-1] times scale.
func Arange(n int, scale float64) *ir.Buffer {
	b := ir.NewBuffer(ir.Float32, []int{n})
	for i := range n {
		b.Set(i, float64(i)*scale)
	}
	return b
}

// Vec returns an f32 vector.
func Vec(vs ...float64) *ir.Buffer {
	b := ir.NewBuffer(ir.Float32, []int{len(vs)})
	for i, v := range vs {
		b.Set(i, v)
	}
	return b
}
