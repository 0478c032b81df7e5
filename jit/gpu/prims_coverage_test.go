package gpu

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/internal/primtest"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// TestEveryPrimitiveRuns is the GPU backend's part of the coverage test in
// jit/ir (TestEveryPrimitiveIsHandled): one sample program per primitive
// that jit/ir declares is lowered to PTX and run on the PTX interpreter,
// and its results must match the reference evaluator's.
func TestEveryPrimitiveRuns(t *testing.T) {
	declared, err := primtest.Declared()
	if err != nil {
		t.Fatal(err)
	}
	var printed bytes.Buffer
	eval.SetPrintOutput(&printed)
	defer eval.SetPrintOutput(nil)
	samples := primtest.Samples(declared)
	for _, prim := range declared {
		s, ok := samples[prim]
		if !ok {
			t.Errorf("no sample for %s: add one to jit/internal/primtest", prim)
			continue
		}
		want, err := eval.Closed(s.Jaxpr, s.Args)
		if err != nil {
			t.Fatalf("%s: evaluator: %v", prim, err)
		}
		exe, _, text := compileSim(t, s.Jaxpr)
		got, err := exe.Execute(s.Args)
		if err != nil {
			t.Fatalf("%s: Execute: %v\n%s", prim, err, text)
		}
		for k := range want {
			if d := maxRelDiff(t, got[k], want[k]); d > 1e-5 {
				t.Errorf("%s result %d: max relative difference %g\ngot  %v\nwant %v", prim, k, d, got[k], want[k])
			}
		}
	}
	// debug_print ran once in the evaluator and once on the device.
	if n := strings.Count(printed.String(), "x = "); n != 2 {
		t.Errorf("debug_print printed %q; want its line twice", printed.String())
	}
}
