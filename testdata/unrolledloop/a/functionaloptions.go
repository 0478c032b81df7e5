package a

import "github.com/jitlint/jitlint/jit"

// Functional options: a constructor applies each option closure to the
// value it makes, in a loop over its variadic options, so what an option
// stores is in the value: a traced method's loop over the configured band
// count runs as many times as the option says.

type foExtractor struct{ bands, taps int }

type foOption func(*foExtractor)

func foWithBands(n int) foOption { return func(e *foExtractor) { e.bands = n } }
func foWithTaps(n int) foOption  { return func(e *foExtractor) { e.taps = n } }

func newFoExtractor(opts ...foOption) *foExtractor {
	e := &foExtractor{bands: 8, taps: 8}
	for _, o := range opts {
		o(e)
	}
	return e
}

func (e *foExtractor) Bands(w jit.Array) jit.Array {
	acc := w
	for b := 0; b < e.bands; b++ { // want `loop is unrolled into the trace up to 40 times \(e.bands is 40\)`
		acc = acc.Add(float64(b))
	}
	return acc
}

func functionalOptions(w jit.Array) {
	ex := newFoExtractor(foWithBands(40), foWithTaps(32))
	jit.Jit(ex.Bands).Call(w)
}
