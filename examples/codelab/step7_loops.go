package main

import (
	"fmt"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// PythonForLoop unrolls steps iterations of y = sin(y) + 0.01*y into the
// trace: the jaxpr, and so trace and compile time, grow with steps.
func PythonForLoop(steps int, x jit.Array) jit.Array {
	y := x
	for i := 0; i < steps; i++ {
		y = y.Sin().Add(y.Mul(0.01))
	}
	return y
}

// ScanLoop runs the same body as one scan equation: the program stays the
// same size whatever the step count.
func ScanLoop(steps int, x jit.Array) jit.Array {
	y, _ := jit.ScanN(func(y jit.Array) (jit.Array, struct{}) {
		return y.Sin().Add(y.Mul(0.01)), struct{}{}
	}, x, steps)
	return y
}

// firstCall times a first (compiling) call.
func firstCall(f func(int, jit.Array) jit.Array, steps int, x jit.Array) (jit.Array, time.Duration) {
	start := time.Now()
	y := f(steps, x).BlockUntilReady()
	return y, time.Since(start)
}

func step7() {
	python := jit.Jit(PythonForLoop, jit.StaticArgnums(0))
	scan := jit.Jit(ScanLoop, jit.StaticArgnums(0))
	x := jit.Arange(1024, jit.Float32).Div(1024)
	report := func(steps int, a, b jit.Array, ta, tb time.Duration) {
		diff := a.Sub(b).Abs().MaxReduce().Item()
		fmt.Printf("%5d steps: unrolled first call %12s   scan first call %10s   max |difference| %.2g\n", steps, ms(ta), ms(tb), diff)
	}
	a, ta := firstCall(python.Call, 200, x)
	b, tb := firstCall(scan.Call, 200, x)
	report(200, a, b, ta, tb)
	a, ta = firstCall(python.Call, 2000, x)
	b, tb = firstCall(scan.Call, 2000, x)
	report(2000, a, b, ta, tb)
	for _, f := range []struct {
		name string
		fn   func(int, jit.Array) jit.Array
	}{{"PythonForLoop", PythonForLoop}, {"ScanLoop", ScanLoop}} {
		cj, err := jit.MakeJaxpr(f.fn, jit.StaticArgnums(0))(2000, jit.Spec(jit.Float32, 1024))
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s at 2000 steps: %d top-level equations\n", f.name, len(cj.Eqns()))
	}
}
