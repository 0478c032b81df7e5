package main

import (
	"fmt"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// Heavy chains 20 rounds of sin(y)*cos(y) + tanh(y): a 20-iteration Go loop
// is unrolled into the trace, which is fine at this size.
func Heavy(x jit.Array) jit.Array {
	y := x
	for i := 0; i < 20; i++ {
		y = y.Sin().Mul(y.Cos()).Add(y.Tanh())
	}
	return y
}

func step4() {
	heavy := jit.Jit(Heavy)
	x := jit.Arange(1_000_000, jit.Float32)
	jit.ClearCaches()
	start := time.Now()
	heavy.Call(x).BlockUntilReady()
	first := time.Since(start)
	const n = 20
	start = time.Now()
	for i := 0; i < n; i++ {
		heavy.Call(x).BlockUntilReady()
	}
	cached := time.Since(start) / n
	s := heavy.Stats()
	fmt.Printf("first call (trace + lower + compile + run): %s\n", ms(first))
	fmt.Printf("cached call (mean of %d):                   %s\n", n, ms(cached))
	fmt.Printf("first - cached:                             %s\n", ms(first-cached))
	fmt.Printf("compilation cost (trace + lower + compile): %s  [trace %s, lower %s, compile %s]\n",
		ms(s.LastTraceTime+s.LastLowerTime+s.LastCompileTime), ms(s.LastTraceTime), ms(s.LastLowerTime), ms(s.LastCompileTime))
	fmt.Printf("execute (last call):                        %s\n", ms(s.LastExecuteTime))
}
