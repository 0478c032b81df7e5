package main

import (
	"errors"
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// ReluBad branches in Go on a traced value: tracing fails with a
// TracerBoolConversionError, because a traced value has no Go bool yet.
func ReluBad(x jit.Array) jit.Array {
	if x.Gt(0).Bool() {
		return x
	}
	return x.Mul(0)
}

// ReluWhere computes both sides and selects elementwise.
func ReluWhere(x jit.Array) jit.Array { return jit.Where(x.Gt(0), x, 0.0) }

// SoftOrSharp takes a traced bool and runs only one branch: relu when sharp,
// softplus otherwise.
//
//jit:args bool[], f32[3]
func SoftOrSharp(sharp jit.Array, x jit.Array) jit.Array {
	return jit.Cond(sharp, jit.Relu, jit.Softplus, x)
}

func step6() {
	x := jit.FromSlice([]float32{-1, -0.5, 0, 0.5, 1})
	func() {
		defer func() {
			r := recover()
			var e *jit.Error
			if err, ok := r.(error); ok && errors.As(err, &e) {
				fmt.Printf("relu_bad failed as expected (%s):\n%s\n", e.Kind, e.Msg)
				return
			}
			if r != nil {
				panic(r)
			}
		}()
		jit.Jit(ReluBad).Call(x)
	}()
	fmt.Println("fix 1, jit.Where:", jit.Jit(ReluWhere).Call(x))
	soft := jit.Jit(SoftOrSharp)
	y := jit.FromSlice([]float32{-1, 0.5, 2})
	fmt.Println("fix 2, jit.Cond (sharp=false → softplus):", soft.Call(jit.Scalar(false), y))
	fmt.Println("fix 2, jit.Cond (sharp=true  → relu):    ", soft.Call(jit.Scalar(true), y))
	fmt.Printf("one compile for both predicates: compiles=%d\n", soft.Stats().Compiles)
}
