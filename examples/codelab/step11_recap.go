package main

import (
	"fmt"
	"os"

	"github.com/jitlint/jitlint/jit"
)

// Params is a pytree: the structure (how many layers) is part of the cache key.
type Params struct {
	Layers []jit.Array
	Scale  float64 `jit:"static"`
}

// Apply multiplies x by every layer and scales it.
func Apply(p Params, x jit.Array) jit.Array {
	for _, w := range p.Layers {
		x = x.Mul(w)
	}
	return x.Mul(p.Scale)
}

func step11() {
	jit.SetExplainCacheMisses(true)
	jit.SetLogOutput(os.Stdout)
	defer jit.SetExplainCacheMisses(false)
	apply := jit.Jit(Apply)
	x := jit.Ones(jit.Float32, 3)
	w := jit.FromSlice([]float32{1, 2, 3})
	fmt.Println("one layer: ", apply.Call(Params{Layers: []jit.Array{w}, Scale: 1}, x))
	fmt.Println("two layers:", apply.Call(Params{Layers: []jit.Array{w, w}, Scale: 1}, x))
	fmt.Println("scale 2:   ", apply.Call(Params{Layers: []jit.Array{w}, Scale: 2}, x))
	fmt.Println("compiled signatures:")
	for _, s := range apply.Signatures() {
		fmt.Println("  ", s)
	}
	// Comparing the jaxprs of a "fast" and a "slow" variant shows what changed.
	for _, n := range []int{1, 2} {
		p := Params{Layers: make([]jit.Array, n), Scale: 1}
		for i := range p.Layers {
			p.Layers[i] = w
		}
		tr, err := apply.Trace(p, jit.Spec(jit.Float32, 3))
		if err != nil {
			panic(err)
		}
		fmt.Printf("jaxpr with %d layer(s):\n%s\n", n, tr.Jaxpr())
	}
}
