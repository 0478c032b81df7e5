// Command eigen finds the dominant eigenvalue of a covariance matrix by
// power iteration, four ways: a fixed budget of 50 iterations in a Go
// loop inside the trace (unrolled), the same with jit.WhileLoop and a
// tolerance, a jitted single iteration driven by a host loop that checks
// convergence between calls, and a few deflation rounds (one per
// requested component) around the while loop.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const (
	maxIter    = 50
	tol        = 1e-6
	components = 3
)

func normalize(v jit.Array) jit.Array { return v.Div(v.Mul(v).Sum().Sqrt()) }

// powerFixed runs maxIter iterations.
func powerFixed(a, v jit.Array) jit.Array {
	for i := 0; i < maxIter; i++ { // want unrolledloop
		v = normalize(a.MatMul(v))
	}
	return v
}

type state struct {
	V, Delta, It jit.Array
}

// powerWhile iterates until the vector moves less than tol.
func powerWhile(a, v jit.Array) jit.Array {
	final := jit.WhileLoop(func(s state) jit.Array {
		return s.Delta.Gt(tol).And(s.It.Lt(maxIter))
	}, func(s state) state {
		next := normalize(a.MatMul(s.V))
		return state{V: next, Delta: next.Sub(s.V).Abs().Sum(), It: s.It.Add(1)}
	}, state{V: v, Delta: jit.Scalar(float32(1)), It: jit.Scalar(float32(0))})
	return final.V
}

// rayleigh is v'Av for a unit vector v.
func rayleigh(a, v jit.Array) jit.Array { return v.Transpose(1, 0).MatMul(a.MatMul(v)).Reshape() }

// topK deflates a after each component it finds.
func topK(a, v jit.Array) jit.Array {
	var values []jit.Array
	for k := 0; k < components; k++ {
		u := powerWhile(a, v)
		lam := rayleigh(a, u)
		values = append(values, lam.Reshape(1))
		a = a.Sub(u.MatMul(u.Transpose(1, 0)).Mul(lam))
	}
	return jit.Concatenate(0, values...)
}

func covariance() jit.Array {
	const n = 6
	data := make([]float32, n*n)
	for i := range n {
		for j := range n {
			data[i*n+j] = 1 / float32(1+i+j)
		}
	}
	return jit.FromSlice(data, n, n)
}

func main() {
	a := covariance()
	v0 := jit.Ones(jit.Float32, 6, 1).Div(6)
	fixed, while := jit.Jit(powerFixed), jit.Jit(powerWhile)
	fmt.Println("fixed:", rayleigh(a, fixed.Call(a, v0)).Item())
	fmt.Println("while:", rayleigh(a, while.Call(a, v0)).Item())

	// One iteration per jitted call; the host decides when to stop.
	step := jit.Jit(func(a, v jit.Array) jit.Array { return normalize(a.MatMul(v)) })
	v := v0
	iters := 0
	for ; iters < 500; iters++ {
		next := step.Call(a, v)
		moved := next.Sub(v).Abs().Sum().Item()
		v = next
		if moved < tol {
			break
		}
	}
	fmt.Println("host loop:", rayleigh(a, v).Item(), "after", iters)
	fmt.Println("top-3:", jit.Jit(topK).Call(a, v0))
}
