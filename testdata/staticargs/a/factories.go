package a

import "github.com/jitlint/jitlint/jit"

// jit.Jit in helpers: which function each call jits, and whether the
// caller keeps the wrapper.

func lossA(x jit.Array) jit.Array { return x.Mul(x).Sum() }
func lossB(x jit.Array) jit.Array { return x.Abs().Sum() }

// fitWith jits the gradient of the loss it is given.
func fitWith(loss func(jit.Array) jit.Array, x jit.Array) jit.Array {
	g := jit.Jit(jit.Grad[func(jit.Array) jit.Array](loss))
	return g.Call(x)
}

// fitTwice jits the same loss's gradient from two places.
func fitTwice(loss func(jit.Array) jit.Array, x jit.Array) jit.Array {
	g := jit.Jit(jit.Grad[func(jit.Array) jit.Array](loss)) // want `jit.Jit runs on every call of fitTwice, and fitTwice is called from 2 places`
	return g.Call(x)
}

func fits(x jit.Array) {
	// Not reported: each place fits a different loss, compiled once.
	fitWith(lossA, x)
	fitWith(lossB, x)
	fitTwice(lossA, x)
	fitTwice(lossA, x)
}

// compileScaled makes a wrapper per factor; its callers keep them.
func compileScaled(k float64) *jit.Func[func(jit.Array) jit.Array] {
	return jit.Jit(func(x jit.Array) jit.Array { return x.Mul(k) })
}

// compileOffset makes a new wrapper on every call; the loop calling it
// drops them.
func compileOffset() *jit.Func[func(jit.Array) jit.Array] {
	return jit.Jit(func(x jit.Array) jit.Array { return x.Add(1) }) // want `jit.Jit runs on every call of compileOffset, and compileOffset is called in a loop`
}

// fcBuilder configures a scorer; Build jits a closure over its settings.
type fcBuilder struct{ scale float64 }

func newFcBuilder() *fcBuilder { return &fcBuilder{scale: 1} }

func (b *fcBuilder) Scale(s float64) *fcBuilder { b.scale = s; return b }

func (b *fcBuilder) Build() *jit.Func[func(jit.Array) jit.Array] {
	s := b.scale
	return jit.Jit(func(x jit.Array) jit.Array { return x.Mul(s) }) // want `jit.Jit runs on every call of Build, and Build is called in a loop`
}

// buildPerRequest builds a scorer per request and calls it once; the
// scorer built once is called in the loop.
func buildPerRequest(x jit.Array) {
	for range 4 {
		scorer := newFcBuilder().Scale(0.5).Build()
		scorer.Call(x)
	}
	once := newFcBuilder().Scale(2).Build()
	for range 4 {
		once.Call(x)
	}
}

func keptWrappers(x jit.Array) {
	// Not reported: compiled once per factor, kept in a map and called
	// on every round.
	byFactor := map[float64]*jit.Func[func(jit.Array) jit.Array]{}
	for _, k := range []float64{1, 2, 3} {
		byFactor[k] = compileScaled(k)
	}
	for range 5 {
		for _, k := range []float64{1, 2, 3} {
			byFactor[k].Call(x)
		}
	}
	for range 5 {
		compileOffset().Call(x)
	}
}

// A table of steps, each run once by a loop over the table.
type step struct {
	name string
	run  func(x jit.Array)
}

func stepJit(x jit.Array) {
	jit.Jit(func(x jit.Array) jit.Array { return x.Neg() }).Call(x)
}

func stepAgain(x jit.Array) {
	jit.Jit(func(x jit.Array) jit.Array { return x.Abs() }).Call(x) // want `jit.Jit runs on every call of stepAgain, and stepAgain is called in a loop`
}

func runSteps(x jit.Array) {
	// Not reported: stepJit is one entry of the table, run once.
	for _, s := range []step{{"jit", stepJit}, {"print", func(jit.Array) {}}} {
		s.run(x)
	}
	// Reported: the table is run three times.
	for range 3 {
		for _, s := range []step{{"again", stepAgain}, {"print", func(jit.Array) {}}} {
			s.run(x)
		}
	}
}
