package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Loss runs three steps of a tiny recurrent model (ScanN) and scores the
// error with a branch (Cond): squared when it is positive overall,
// absolute otherwise.
//
//jit:args f32[3]
func Loss(w jit.Array) jit.Array {
	x := jit.FromSlice([]float32{0.5, -1, 2})
	h, _ := jit.ScanN(func(h jit.Array) (jit.Array, struct{}) { return h.Mul(w).Tanh(), struct{}{} }, x, 3)
	e := h.Sub(0.25)
	return jit.Cond(e.Sum().Gt(0),
		func(e jit.Array) jit.Array { return e.Mul(e).Sum() },
		func(e jit.Array) jit.Array { return e.Abs().Sum() }, e)
}

// SqrtPos is sum(where(x > 0, sqrt(x), 0)): its gradient is NaN at 0.
func SqrtPos(x jit.Array) jit.Array {
	return jit.Where(x.Gt(0), x.Sqrt(), 0).Sum()
}

// SqrtPosSafe is the double where: the branch that is not chosen never sees
// x <= 0, so its derivative is finite and the gradient is 0 there.
func SqrtPosSafe(x jit.Array) jit.Array {
	pos := x.Gt(0)
	return jit.Where(pos, jit.Where(pos, x, 1).Sqrt(), 0).Sum()
}

type gradOf = func(jit.Array) jit.Array

func step10() {
	// Vmap of SoftOrSharp with the predicate batched: one predicate per row.
	batched := jit.Vmap(SoftOrSharp)
	sharp := jit.FromSlice([]bool{true, false, true})
	xs := jit.FromSlice([]float32{-1, 0.5, 2, -1, 0.5, 2, -1, 0.5, 2}, 3, 3)
	fmt.Println("vmap(SoftOrSharp), sharp = [true false true]:")
	fmt.Println(batched(sharp, xs))
	cj, err := jit.MakeJaxpr(batched)(jit.Spec(jit.Bool, 3), jit.Spec(jit.Float32, 3, 3))
	if err != nil {
		panic(err)
	}
	fmt.Println("its jaxpr: both branches run and select_n chooses per row")
	fmt.Println(cj)

	// Grad through Cond and ScanN, eagerly and jitted.
	w := jit.FromSlice([]float32{0.8, 1.1, -0.5})
	vg := jit.ValueAndGrad[func(jit.Array) (jit.Array, jit.Array)](Loss)
	v, g := vg(w)
	fmt.Println("loss:", v, " grad:", g)
	fmt.Println("jitted grad:", jit.Jit(jit.Grad[gradOf](Loss)).Call(w))

	// The where/sqrt trap and the double where.
	x := jit.FromSlice([]float32{0, 1, 4})
	fmt.Println("grad of sum(where(x > 0, sqrt(x), 0)) at [0 1 4]:", jit.Grad[gradOf](SqrtPos)(x))
	fmt.Println("the same with the double where:                 ", jit.Grad[gradOf](SqrtPosSafe)(x))
}
