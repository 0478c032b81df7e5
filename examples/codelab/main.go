// Command codelab runs, step by step, the JAX codelab "Control JAX
// compilation with jax.jit" ported to Go with package jit: watching tracing,
// compile versus cached cost, the causes of recompiles, control flow on traced
// values, long loops, padding with masks, static arguments and jaxprs, then
// the transformations Vmap and Grad (a batched Cond runs both branches;
// the gradient of a where over sqrt is NaN unless written as a double where).
//
//	go run ./examples/codelab          # every step
//	go run ./examples/codelab -step 6  # one step
//
// Some functions here are wrong on purpose (ReluBad, the unrolled
// PythonForLoop, a counter passed as a static argument, a call whose input
// shape changes in a loop, a print at trace time, SqrtPos's NaN gradient,
// SoftOrSharp's branch under Vmap): they show what the codelab teaches, and
// `jitlint ./examples/codelab` reports each of them.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

var steps = []struct {
	n     int
	title string
	run   func()
}{
	{2, "Setup: version, backend, devices", step2},
	{3, "Watch tracing happen", step3},
	{4, "Compile cost versus cached calls", step4},
	{5, "What triggers a recompile", step5},
	{6, "Control flow on traced values", step6},
	{7, "Long loops: unrolled versus scan", step7},
	{8, "Padding with masks, and static arguments", step8},
	{9, "Look at the jaxpr", step9},
	{10, "Transformations: Vmap and Grad, and the traps they set", step10},
	{11, "Recap: pytree structure is part of the cache key", step11},
}

func main() {
	only := flag.Int("step", 0, "run only this step (2-11); 0 runs all")
	flag.Parse()
	ran := false
	for _, s := range steps {
		if *only != 0 && s.n != *only {
			continue
		}
		fmt.Printf("\n=== Step %d: %s ===\n", s.n, s.title)
		s.run()
		ran = true
	}
	if !ran {
		fmt.Fprintf(os.Stderr, "codelab: there is no step %d (steps: 2-11)\n", *only)
		os.Exit(2)
	}
}

// ms formats a duration in milliseconds.
func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d.Nanoseconds())/1e6) }
