package jit_test

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// counting returns a jitted x*2+1 and a counter of how often its Go body ran
// (= how often it was traced; different signatures may trace concurrently).
func counting() (*jit.Func[func(jit.Array) jit.Array], *atomic.Int32) {
	n := new(atomic.Int32)
	f := jit.Jit(func(x jit.Array) jit.Array {
		n.Add(1) //jitlint:ignore traceeffect the counter counts traces on purpose
		return x.Mul(2).Add(1)
	})
	return f, n
}

func TestSideEffectsOnlyAtTraceTime(t *testing.T) {
	f, traces := counting()
	x := jit.Arange(4, jit.Float32)
	for i := 0; i < 5; i++ {
		got := f.Call(x).Float32s()
		if got[3] != 7 {
			t.Fatalf("f(3) = %v, want 7", got[3])
		}
	}
	if traces.Load() != 1 {
		t.Errorf("the Go body ran %d times for 5 calls with one signature, want 1 (only at trace time)", traces.Load())
	}
	if s := f.Stats(); s.Traces != 1 || s.Compiles != 1 || s.Hits != 4 {
		t.Errorf("stats = %+v, want 1 trace, 1 compile, 4 hits", s)
	}
}

// TestStatsPhaseTimes checks that each phase (trace, lower, compile) adds
// its last duration to its own total: after one signature the totals are
// the last durations, after a second they grow by exactly the new ones.
func TestStatsPhaseTimes(t *testing.T) {
	f, _ := counting()
	f.Call(jit.Arange(4, jit.Float32))
	s1 := f.Stats()
	if s1.TraceTime != s1.LastTraceTime || s1.LowerTime != s1.LastLowerTime || s1.CompileTime != s1.LastCompileTime {
		t.Errorf("after one compile the totals must equal the last durations: %+v", s1)
	}
	f.Call(jit.Arange(5, jit.Float32))
	s2 := f.Stats()
	if s2.Traces != 2 || s2.Compiles != 2 {
		t.Errorf("two signatures: %d traces and %d compiles, want 2 and 2", s2.Traces, s2.Compiles)
	}
	for _, p := range []struct {
		name                  string
		total1, total2, last2 time.Duration
	}{
		{"trace", s1.TraceTime, s2.TraceTime, s2.LastTraceTime},
		{"lower", s1.LowerTime, s2.LowerTime, s2.LastLowerTime},
		{"compile", s1.CompileTime, s2.CompileTime, s2.LastCompileTime},
	} {
		if p.total2 != p.total1+p.last2 {
			t.Errorf("%s time: total %v after the second compile, want %v + %v", p.name, p.total2, p.total1, p.last2)
		}
	}
}

func TestCacheKey(t *testing.T) {
	f32 := func(n int) jit.Array { return jit.Zeros(jit.Float32, n) }
	cases := []struct {
		name       string
		a, b       any
		recompiles bool
	}{
		{"same shape, other values", f32(3), jit.Ones(jit.Float32, 3), false},
		{"shape", f32(3), f32(4), true},
		{"dtype", f32(3), jit.Zeros(jit.Float64, 3), true},
		{"weak type", 1.0, jit.Scalar(float32(1)), true},
		{"go number vs go number", 1.0, 2.5, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := jit.Jit(func(x any) jit.Array { return x.(jit.Array).Add(1) })
			call := func(v any) {
				if a, ok := v.(jit.Array); ok {
					f.Call(a)
				} else {
					f.Call(v)
				}
			}
			call(c.a)
			call(c.b)
			want := 1
			if c.recompiles {
				want = 2
			}
			if got := f.Stats().Compiles; got != want {
				t.Errorf("compiles = %d, want %d (signatures %v)", got, want, f.Signatures())
			}
		})
	}
}

type layers struct {
	W     []jit.Array
	Scale int `jit:"static"`
}

func TestCacheKeyStaticAndStructure(t *testing.T) {
	power := jit.Jit(func(n int, x jit.Array) jit.Array {
		for i := 0; i < n; i++ {
			x = x.Mul(x)
		}
		return x
	}, jit.StaticArgnums(0))
	x := jit.FromSlice([]float32{1, 2, 3})
	for _, n := range []int{2, 3, 2} {
		power.Call(n, x)
	}
	if s := power.Stats(); s.Compiles != 2 || s.Hits != 1 {
		t.Errorf("static n=2,3,2: %+v, want 2 compiles and 1 hit", s)
	}
	if got := power.Call(3, x).Float32s(); got[2] != 6561 {
		t.Errorf("power(3, 3) = %v, want 6561", got[2])
	}

	apply := jit.Jit(func(p layers, x jit.Array) jit.Array {
		for _, w := range p.W {
			x = x.Mul(w)
		}
		return x.Mul(p.Scale)
	})
	apply.Call(layers{W: []jit.Array{x}, Scale: 1}, x)
	apply.Call(layers{W: []jit.Array{x}, Scale: 1}, x)    // hit
	apply.Call(layers{W: []jit.Array{x, x}, Scale: 1}, x) // structure
	apply.Call(layers{W: []jit.Array{x}, Scale: 2}, x)    // static field
	if s := apply.Stats(); s.Compiles != 3 || s.Hits != 1 {
		t.Errorf("pytree structure / static field: %+v, want 3 compiles and 1 hit (%v)", s, apply.Signatures())
	}
	got := apply.Call(layers{W: []jit.Array{x, x}, Scale: 2}, x).Float32s()
	if got[2] != 54 {
		t.Errorf("apply = %v, want 3*3*3*2 = 54 last", got)
	}
}

func TestClearCaches(t *testing.T) {
	f, traces := counting()
	x := jit.Arange(3, jit.Float32)
	f.Call(x)
	jit.ClearCaches()
	f.Call(x)
	if traces.Load() != 2 {
		t.Errorf("after ClearCaches the function traced %d times in total, want 2", traces.Load())
	}
}

func TestConcurrentCalls(t *testing.T) {
	f, traces := counting()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				n := 1 + (g+i)%3
				got := f.Call(jit.Full(float64(g), jit.Float32, n)).Float32s()
				if len(got) != n || got[0] != float32(2*g+1) {
					t.Errorf("goroutine %d: got %v", g, got)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	if traces.Load() != 3 || f.Stats().Compiles != 3 {
		t.Errorf("8 goroutines over 3 shapes: %d traces, %d compiles, want 3 and 3", traces.Load(), f.Stats().Compiles)
	}
}

// explainInto turns cache-miss explanations on, logged into the returned
// buffer, until the test ends.
func explainInto(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	jit.SetLogOutput(&buf)
	jit.SetExplainCacheMisses(true)
	t.Cleanup(func() {
		jit.SetExplainCacheMisses(false)
		jit.SetLogOutput(nil)
	})
	return &buf
}

func TestExplainCacheMisses(t *testing.T) {
	buf := explainInto(t)
	f := jit.Jit(SumSquaresForTest)
	f.Call(jit.Zeros(jit.Float32, 100))
	if buf.Len() != 0 {
		t.Errorf("the first compile is not a miss to explain, got %q", buf.String())
	}
	f.Call(jit.Zeros(jit.Float32, 200))
	f.Call(jit.Zeros(jit.Float32, 100))
	f.Call(jit.Zeros(jit.Float32, 300)) // line of the third miss
	out := buf.String()
	for _, want := range []string{
		"TRACING CACHE MISS at ",
		"cache_test.go:",
		"for SumSquaresForTest defined at ",
		"all previously seen cache keys differ. For the closest previous key:",
		"different input types:\n  * at x, now f32[200] and before f32[100]",
		"* at x, now f32[300] and before f32[200]", // closest shape
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explanation lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "TRACING CACHE MISS"); n != 2 {
		t.Errorf("%d explanations, want 2 (the repeat of f32[100] is a hit):\n%s", n, out)
	}

	buf.Reset()
	g := jit.Jit(func(x any) jit.Array { return x.(jit.Array).Add(1) })
	g.Call(1.0)
	g.Call(jit.Scalar(float32(1)))
	if out := buf.String(); !strings.Contains(out, "now f32[]{weak_type=False} and before f32[]{weak_type=True}") ||
		!strings.Contains(out, "weak_type=True often means a Go number") {
		t.Errorf("weak-type explanation missing:\n%s", out)
	}

	buf.Reset()
	p := jit.Jit(func(n int, x jit.Array) jit.Array { return x.Mul(n) }, jit.StaticArgnums(0))
	p.Call(2, jit.Zeros(jit.Float32, 2))
	p.Call(3, jit.Zeros(jit.Float32, 2))
	if out := buf.String(); !strings.Contains(out, "different static arguments") || !strings.Contains(out, "* at n, now 3 and before 2") {
		t.Errorf("static-argument explanation missing:\n%s", out)
	}
}

// SumSquaresForTest is sum(x**2).
func SumSquaresForTest(x jit.Array) jit.Array { return x.Pow(2).Sum() }

func TestLogCompiles(t *testing.T) {
	var buf bytes.Buffer
	jit.SetLogOutput(&buf)
	jit.SetLogCompiles(true)
	defer func() {
		jit.SetLogCompiles(false)
		jit.SetLogOutput(nil)
	}()
	jit.Jit(SumSquaresForTest).Call(jit.Zeros(jit.Float32, 7))
	for _, want := range []string{"Finished tracing SumSquaresForTest for jit in ", "Compiling SumSquaresForTest with global shapes and types [f32[7]]",
		"lowering of jit(SumSquaresForTest) in ", "compilation of jit(SumSquaresForTest) in "} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("compile log lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestSignaturesAndAOT(t *testing.T) {
	f := jit.Jit(func(n int, x jit.Array) jit.Array { return x.Mul(n) }, jit.StaticArgnums(0))
	tr, err := f.Trace(3, jit.Spec(jit.Float32, 4))
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Jaxpr().String(); got != "{ lambda ; a:f32[4]. let b:f32[4] = mul a 3.0:f32[] in (b,) }" {
		t.Errorf("jaxpr = %s", got)
	}
	low, err := tr.Lower()
	if err != nil {
		t.Fatal(err)
	}
	if low.AsText() == "" {
		t.Error("empty lowered text")
	}
	comp, err := low.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if comp.Backend() != "cpu" {
		t.Errorf("backend %q", comp.Backend())
	}
	if c := comp.CostAnalysis(); c.Flops != 4 {
		t.Errorf("cost %+v, want 4 flops", c)
	}
	for _, args := range [][]any{{3, jit.Ones(jit.Float32, 4)}, {jit.Ones(jit.Float32, 4)}} {
		out, err := comp.Call(args...)
		if err != nil {
			t.Fatal(err)
		}
		if got := out[0].Float32s(); got[0] != 3 {
			t.Errorf("compiled call = %v", got)
		}
	}
	_, err = comp.Call(jit.Ones(jit.Float32, 5))
	if err == nil || !strings.Contains(err.Error(), "Argument 'x' compiled with f32[4] and called with f32[5]") {
		t.Errorf("signature check: %v", err)
	}
	if _, err := comp.Call(4, jit.Ones(jit.Float32, 4)); err == nil || !strings.Contains(err.Error(), "Static argument 'n' compiled with 3 and called with 4") {
		t.Errorf("static check: %v", err)
	}
	f.Call(2, jit.Ones(jit.Float32, 4))
	if got := f.Signatures(); len(got) != 1 || got[0] != "(n=2, x: f32[4]) on cpu" {
		t.Errorf("signatures = %q", got)
	}
}

// TestExplainTransformedSource checks that a miss of a jitted Vmap or
// Grad names where the transformed function is defined, and its
// parameters, not reflect's stub that the transformation runs through.
func TestExplainTransformedSource(t *testing.T) {
	buf := explainInto(t)
	v := jit.Jit(jit.Vmap(SumSquaresForTest))
	v.Call(jit.Zeros(jit.Float32, 2, 3))
	v.Call(jit.Zeros(jit.Float32, 2, 4))
	g := jit.Jit(jit.Grad[func(jit.Array) jit.Array](SumSquaresForTest))
	g.Call(jit.Zeros(jit.Float32, 3))
	g.Call(jit.Zeros(jit.Float32, 4))
	out := buf.String()
	for _, want := range []string{
		"for vmap(SumSquaresForTest) defined at ",
		"for grad(SumSquaresForTest) defined at ",
		"* at x, now f32[2,4] and before f32[2,3]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explanation lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "reflect") || strings.Count(out, "_test.go:") < 2 {
		t.Errorf("the transformed functions are not placed in the test's source:\n%s", out)
	}
}
