package jit_test

import (
	"testing"

	"github.com/jitlint/jitlint/jit"
)

// sharedStep is a top-level function: every jit.Jit(sharedStep) with equal
// options shares one compile cache.
func sharedStep(x jit.Array) jit.Array { return x.Mul(3).Add(1) }

// scaler has a method for the method-expression and method-value cases.
type scaler struct{ k float32 }

func (s scaler) apply(x jit.Array) jit.Array { return x.Mul(s.k) }

func TestRejitNamedFunctionCompilesOnce(t *testing.T) {
	jit.ClearCaches()
	x := jit.Arange(4, jit.Float32)
	var compiles, hits int
	for i := 0; i < 5; i++ {
		f := jit.Jit(sharedStep)
		if got := f.Call(x).Float32s(); got[3] != 10 {
			t.Fatalf("iteration %d: sharedStep(3) = %v, want 10", i, got[3])
		}
		s := f.Stats()
		compiles += s.Compiles
		hits += s.Hits
		if i > 0 && (s.Compiles != 0 || s.Traces != 0 || s.Hits != 1) {
			t.Errorf("iteration %d: a new wrapper of the same function has stats %+v, want 0 traces, 0 compiles, 1 hit", i, s)
		}
	}
	if compiles != 1 || hits != 4 {
		t.Errorf("5 wrappers of one named function: %d compiles and %d hits in total, want 1 and 4", compiles, hits)
	}
	// Other options are another cache.
	if s := callStats(jit.Jit(sharedStep, jit.Name("renamed")), x); s.Compiles != 1 {
		t.Errorf("a wrapper with another Name: %+v, want its own compile", s)
	}
	// ClearCaches clears the shared cache too.
	jit.ClearCaches()
	if s := callStats(jit.Jit(sharedStep), x); s.Compiles != 1 {
		t.Errorf("after ClearCaches: %+v, want a new compile", s)
	}
}

func TestRejitClosureCompilesEachTime(t *testing.T) {
	x := jit.Arange(4, jit.Float32)
	for i := 0; i < 3; i++ {
		k := float32(i + 2)
		f := jit.Jit(func(x jit.Array) jit.Array { return x.Mul(k) }) //jitlint:ignore staticargs the test makes a closure per iteration on purpose
		if got := f.Call(x).Float32s(); got[1] != k {
			t.Fatalf("iteration %d: closure(1) = %v, want %v (a cache shared across closures would return a stale value)", i, got[1], k)
		}
		if s := f.Stats(); s.Compiles != 1 {
			t.Errorf("iteration %d: a closure made in the loop has stats %+v, want its own compile", i, s)
		}
	}
	// A literal that captures nothing is a closure as well, as a JAX lambda.
	for i := 0; i < 2; i++ {
		if s := callStats(jit.Jit(func(x jit.Array) jit.Array { return x.Add(1) }), x); s.Compiles != 1 { //jitlint:ignore staticargs the test makes a closure per iteration on purpose
			t.Errorf("iteration %d: a function literal without captures has stats %+v, want its own compile", i, s)
		}
	}
}

func TestRejitMethods(t *testing.T) {
	x := jit.Arange(4, jit.Float32)
	jit.ClearCaches()
	total := 0
	for i := 0; i < 3; i++ {
		total += callStats(jit.Jit(func(x jit.Array) jit.Array { return scaler.apply(scaler{2}, x) }), x).Compiles //jitlint:ignore staticargs the test makes a closure per iteration on purpose
	}
	expr := 0
	for i := 0; i < 3; i++ {
		f := jit.Jit(scaler.apply, jit.StaticArgnums(0))
		if got := f.Call(scaler{2}, x).Float32s(); got[3] != 6 {
			t.Fatalf("scaler.apply(3) = %v, want 6", got[3])
		}
		expr += f.Stats().Compiles
	}
	if total != 3 || expr != 1 {
		t.Errorf("compiles: closures %d (want 3), method expression %d (want 1)", total, expr)
	}
	for i := 0; i < 3; i++ {
		s := scaler{float32(i + 1)}
		f := jit.Jit(s.apply) //jitlint:ignore staticargs the test makes a method value of a new receiver per iteration on purpose
		if got := f.Call(x).Float32s(); got[1] != s.k {
			t.Fatalf("method value of %v: got %v, want %v", s, got[1], s.k)
		}
		if st := f.Stats(); st.Compiles != 1 {
			t.Errorf("method value %d: stats %+v, want its own compile (it is bound to its receiver)", i, st)
		}
	}
}

// callStats calls f once on x and returns its stats.
func callStats(f *jit.Func[func(jit.Array) jit.Array], x jit.Array) jit.Stats {
	f.Call(x)
	return f.Stats()
}
