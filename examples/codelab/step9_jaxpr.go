package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Model is tanh(x)*sin(x) + log1p(x*x).
func Model(x jit.Array) jit.Array {
	return x.Tanh().Mul(x.Sin()).Add(x.Mul(x).Log1p())
}

func step9() {
	cj, err := jit.MakeJaxpr(Model)(jit.Spec(jit.Float32, 4))
	if err != nil {
		panic(err)
	}
	fmt.Println(cj)
}
