package a

import "github.com/jitlint/jitlint/jit"

// A wrapper's cache lives as long as the wrapper: over the iterations of a
// loop that makes a new wrapper of a closure each time, a shape that
// changes does not make any one wrapper compile again. Wrappers of a named
// function share one cache, wherever they are made.

// wlScaler jits a closure over scale: a wrapper with a cache of its own.
func wlScaler(scale float64) *jit.Func[func(jit.Array) jit.Array] {
	return jit.Jit(func(x jit.Array) jit.Array { return x.Mul(scale) })
}

func wrapperLifetime(sizes []int) {
	for _, n := range sizes {
		f := wlScaler(float64(n))
		x := jit.Zeros(jit.Float32, n)
		for range 5 {
			x = f.Call(x) // not reported: each wrapper sees one shape
		}
	}
	for _, n := range sizes {
		g := jit.Jit(func(x jit.Array) jit.Array { return x.Sin() })
		g.Call(jit.Zeros(jit.Float32, n)) // not reported: one call per wrapper
	}
	for _, n := range sizes {
		named := jit.Jit(SumSquares)
		named.Call(jit.Zeros(jit.Float32, n)) // want `argument x has a different shape on each iteration`
	}
}
