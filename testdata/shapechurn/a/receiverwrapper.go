package a

import "github.com/jitlint/jitlint/jit"

// A jitted function that a constructor or a composite literal stores in a
// struct, called through a method's receiver: the call is found as a call
// of the jitted function where the method is called, and the shapes it
// takes are those of the callers' loops.

type jscorer struct {
	f *jit.Func[func(jit.Array) jit.Array]
}

func newJScorer() *jscorer { return &jscorer{f: jit.Jit(SumSquares)} }

func (s *jscorer) handle(m message) float64 {
	return s.f.Call(jit.FromSlice(m.features)).Item() // want `argument x has a different shape`
}

func serveJ() {
	s := newJScorer()
	for m := range produce([]int{3, 7, 12, 5, 30, 9, 14, 21, 2, 40}) {
		s.handle(m)
	}
}

func (s *jscorer) handleSlice(m message) float64 {
	return s.f.Call(jit.FromSlice(m.features)).Item() // want `argument x has a different shape`
}

func serveJSlice(ms []message) {
	s := newJScorer()
	for _, m := range ms {
		s.handleSlice(m)
	}
}

func (s *jscorer) handleInPlace(m message) float64 {
	return s.f.Call(jit.FromSlice(m.features)).Item() // want `argument x has a different shape`
}

func serveJInPlace(ms []message) {
	s := &jscorer{f: jit.Jit(SumSquares)}
	for _, m := range ms {
		s.handleInPlace(m)
	}
}
