// Command onceinit instruments a normalisation layer the way Go services
// do: a deprecation warning printed through a sync.Once inside the layer
// (the first call is the trace, so it prints while tracing), a lookup
// table initialised through a sync.Once that setup already fired eagerly
// (never runs in a trace), statistics kept only when the input is not a
// tracer, and a trace counter that counts exactly when it is.
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
	eagerRuns int
	traces    int
)

// loadScales fills the per-feature scale table.
func loadScales() {
	tableOnce.Do(func() {
		scales = []float64{1, 0.5, 0.25, 0.125}
		fmt.Println("scale table loaded") // fired by setup, before any trace
	})
}

// normalize scales x by the feature table and standardises it.
func normalize(x jit.Array) jit.Array {
	warnOnce.Do(func() {
		fmt.Println("normalize: eps default changes in v2") // want traceeffect
	})
	loadScales()
	s := jit.FromSlice([]float32{float32(scales[0]), float32(scales[1]), float32(scales[2]), float32(scales[3])})
	y := x.Mul(s)
	d := y.Sub(y.Mean())
	y = d.Mul(d.Mul(d).Mean().Add(1e-5).Rsqrt())
	if !y.IsTracer() {
		eagerRuns++
		fmt.Println("eager normalize, max", y.MaxReduce().Item())
	}
	if y.IsTracer() {
		traces++ // want traceeffect
	}
	return y
}

func setup() {
	loadScales()
}

func main() {
	setup()
	f := jit.Jit(normalize)
	x := jit.FromSlice([]float32{1, 2, 3, 4})
	for range 5 {
		x = f.Call(x)
	}
	fmt.Println(x, "eager", eagerRuns)
	normalize(x)
	fmt.Println("traces", traces, "eager", eagerRuns)
}
