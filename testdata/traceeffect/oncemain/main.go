// Command oncemain fires a sync.Once eagerly from main before its first
// jitted call, and another only from traced code.
package main

import (
	"fmt"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

// vocab is loaded once, by main's setup, before anything is traced.
var vocab struct {
	once  sync.Once
	sizes []float64
}

// deprecation is first fired by the traced function: its body runs while
// tracing, once per program rather than once per call.
var deprecation sync.Once

// loadVocab fills the vocabulary sizes once.
func loadVocab() {
	vocab.once.Do(func() {
		vocab.sizes = []float64{1, 0.5}
		fmt.Println("vocabulary loaded")
	})
}

// embed warns once, and reads the sizes.
func embed(x jit.Array) jit.Array {
	deprecation.Do(func() {
		fmt.Println("embed: the default scale changes in v2") // want `fmt.Println runs once per trace, not on every call`
	})
	loadVocab()
	return x.Mul(vocab.sizes[0]).Sub(x.Mean())
}

// prepare gets the program ready: it loads the vocabulary.
func prepare() { loadVocab() }

func main() {
	prepare()
	f := jit.Jit(embed)
	x := jit.Arange(4, jit.Float32)
	for range 3 {
		x = f.Call(x)
	}
	fmt.Println(x)
}
