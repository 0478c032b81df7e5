package main

import (
	"fmt"
	"os"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// SumSquares is sum(x**2).
func SumSquares(x jit.Array) jit.Array { return x.Pow(2).Sum() }

// step5 calls SumSquares on shapes (100,), (200,), (100,), (200,), (300,):
// new shapes compile, repeats hit the cache. Values never matter. This loop is
// the mistake the codelab warns about (jitlint's shapechurn reports it): the
// argument's shape depends on the loop, so each new length compiles again.
func step5() {
	jit.SetExplainCacheMisses(true)
	jit.SetLogOutput(os.Stdout)
	defer jit.SetExplainCacheMisses(false)
	sumSq := jit.Jit(SumSquares)
	x := jit.Arange(300, jit.Float32)
	for _, n := range []int{100, 200, 100, 200, 300} {
		before := sumSq.Stats().Compiles
		start := time.Now()
		y := sumSq.Call(x.Slice([]int{0}, []int{n})).BlockUntilReady()
		d := time.Since(start)
		kind := "cached"
		if sumSq.Stats().Compiles > before {
			kind = "COMPILED"
		}
		fmt.Printf("shape (%d,): %-8s %10s  sum=%v\n", n, kind, ms(d), y)
	}
	fmt.Println("compiled signatures:", sumSq.Signatures())
}
