// Command oncemain fires a sync.Once eagerly from main before its first
// jitted call, and another only from traced code.
package main

import (
	"fmt"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

var (
	warnOnce  sync.Once
	tableOnce sync.Once
	scales    []float64
)

// loadScales fills the scale table once; main fires it before any trace.
func loadScales() {
	tableOnce.Do(func() {
		scales = []float64{1, 0.5}
		fmt.Println("scale table loaded")
	})
}

// normalize warns once (in the trace: the first call traces), and reads
// the table.
func normalize(x jit.Array) jit.Array {
	warnOnce.Do(func() {
		fmt.Println("normalize: eps default changes in v2") // want `fmt.Println runs once per trace, not on every call`
	})
	loadScales()
	return x.Mul(scales[0]).Sub(x.Mean())
}

func setup() { loadScales() }

func main() {
	setup()
	f := jit.Jit(normalize)
	x := jit.FromSlice([]float32{1, 2, 3, 4})
	for range 3 {
		x = f.Call(x)
	}
	fmt.Println(x)
}
