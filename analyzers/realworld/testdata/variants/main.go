// Command variants compares model variants: each variant is jitted and
// used once, the options come from a helper, and one branch logs.
package main

import (
	"fmt"
	"log"

	"github.com/jitlint/jitlint/jit"
)

func wide(x jit.Array) jit.Array   { return x.Mul(2).Tanh() }
func narrow(x jit.Array) jit.Array { return x.Mul(0.5).Tanh() }
func deep(x jit.Array) jit.Array   { return x.Tanh().Tanh().Tanh() }

func defaultOpts() []jit.Option { return []jit.Option{jit.StaticArgnums(1)} }

func scaled(x jit.Array, factor int) jit.Array { return x.Mul(float64(factor)) }

// gated runs the expensive branch only for positive sums; the branch logs.
func gated(x jit.Array) jit.Array {
	return jit.Cond(x.Sum().Gt(0), func(v jit.Array) jit.Array {
		log.Println("expensive branch") // want traceeffect
		return v.Exp()
	}, func(v jit.Array) jit.Array { return v }, x)
}

func main() {
	x := jit.FromSlice([]float32{0.1, 0.2, 0.3})
	for _, variant := range []func(jit.Array) jit.Array{wide, narrow, deep} {
		fmt.Println(jit.Jit(variant).Call(x))
	}
	f := jit.Jit(scaled, defaultOpts()...)
	for range 5 {
		x = f.Call(x, 2)
	}
	g := jit.Jit(gated)
	for range 3 {
		x = g.Call(x)
	}
	fmt.Println(x)
}
