package ir_test

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/cpu"
	"github.com/jitlint/jitlint/jit/internal/primtest"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// goSyntax matches what the printer's fallback (fmt.Sprint of a parameter
// type it has no rule for) prints and JAX never does: Go slices "[1 2]",
// structs "{...}" after "=", pointers, maps, bad verbs.
var goSyntax = regexp.MustCompile(`=\[\d+ \d|=&|=\{[^ ]|0x[0-9a-f]+|map\[|%!`)

// TestEveryPrimitiveIsHandled runs one sample program per primitive that
// jit/ir/prims.go declares through the evaluator, the CPU backend (whose
// results must match the evaluator's), the cost model (only data movement
// and debug_print may cost nothing) and the printer (the primitive's name,
// parameters in JAX's notation). The GPU backend runs the same samples in
// its own package (TestEveryPrimitiveRuns, on the PTX interpreter). A
// primitive added without a sample, or one that a consumer does not know,
// fails here.
func TestEveryPrimitiveIsHandled(t *testing.T) {
	declared, err := primtest.Declared()
	if err != nil {
		t.Fatal(err)
	}
	if len(declared) < 40 {
		t.Fatalf("read only %d primitives from jit/ir/prims.go: %v", len(declared), declared)
	}
	samples := primtest.Samples(declared)
	var printed bytes.Buffer
	eval.SetPrintOutput(&printed)
	t.Cleanup(func() { eval.SetPrintOutput(nil) })
	for _, prim := range declared {
		t.Run(prim, func(t *testing.T) {
			s, ok := samples[prim]
			if !ok {
				t.Fatalf("no sample for %s: add one to jit/internal/primtest, then make every consumer handle it", prim)
			}
			eqns := eqnsOf(s.Jaxpr.Jaxpr, prim)
			if len(eqns) != 1 {
				t.Fatalf("the sample for %s should apply it once at the top level:\n%s", prim, s.Jaxpr)
			}

			want, err := eval.Closed(s.Jaxpr, s.Args)
			if err != nil {
				t.Fatalf("evaluator: %v\n%s", err, s.Jaxpr)
			}

			l, err := cpu.Backend{}.Lower(s.Jaxpr)
			if err != nil {
				t.Fatalf("cpu backend: lowering: %v\n%s", err, s.Jaxpr)
			}
			ex, err := l.Compile()
			if err != nil {
				t.Fatalf("cpu backend: compiling: %v", err)
			}
			got, err := ex.Execute(s.Args)
			if err != nil {
				t.Fatalf("cpu backend: running: %v", err)
			}
			if len(got) != len(want) {
				t.Fatalf("cpu backend: %d results, the evaluator %d", len(got), len(want))
			}
			for k := range want {
				for i := range want[k].Len() {
					g, w := got[k].At(i), want[k].At(i)
					if math.Abs(g-w) > 1e-5*max(1, math.Abs(w)) {
						t.Fatalf("cpu backend: result %d element %d is %v, the evaluator says %v", k, i, g, w)
					}
				}
			}

			c := ir.CostOf(&ir.Jaxpr{Eqns: eqns})
			if free := c.Flops == 0 && c.Transcendentals == 0; free != primtest.NoFlops[prim] {
				t.Errorf("cost model: %s costs %+v; only primtest.NoFlops cost no flops", prim, c)
			}

			text := s.Jaxpr.String()
			if !regexp.MustCompile(`(^|[ ])` + regexp.QuoteMeta(prim) + `($|[ \[])`).MatchString(text) {
				t.Errorf("printer: %s does not appear in\n%s", prim, text)
			}
			if m := goSyntax.FindString(text); m != "" {
				t.Errorf("printer: a parameter printed in Go's notation (%q), not JAX's:\n%s", m, text)
			}
		})
	}
	if !strings.Contains(printed.String(), "x = ") {
		t.Errorf("debug_print printed %q", printed.String())
	}
}

// eqnsOf returns the top-level equations of j that apply prim.
func eqnsOf(j *ir.Jaxpr, prim string) []*ir.Eqn {
	var out []*ir.Eqn
	for _, e := range j.Eqns {
		if e.Prim == prim {
			out = append(out, e)
		}
	}
	return out
}
