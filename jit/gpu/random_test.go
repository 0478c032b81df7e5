package gpu

import (
	"math/rand/v2"
	"testing"

	"github.com/jitlint/jitlint/jit/internal/randjaxpr"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// TestRandomJaxprsMatchEval lowers random jaxprs (elementwise, broadcast,
// reductions, select, convert, layout operations, and cond/scan/while) and
// runs them through the PTX interpreter, comparing with the reference
// evaluator.
func TestRandomJaxprsMatchEval(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	n := 150
	if testing.Short() {
		n = 30
	}
	ran := 0
	for i := range n {
		opts := randjaxpr.Options{
			NumInputs: 1 + r.IntN(3), NumEqns: 4 + r.IntN(8),
			DTypes:      []ir.DType{ir.Float32, ir.Int32, ir.Float64},
			ControlFlow: i%2 == 1, Layout: i%3 == 0,
		}
		j, args := randjaxpr.New(r, opts)
		cj := &ir.ClosedJaxpr{Jaxpr: j, Name: "random"}
		want, err := eval.Closed(cj, args)
		if err != nil {
			continue // e.g. integer division by zero in the generated program
		}
		ran++
		exe, _, text := compileSim(t, cj)
		got, err := exe.Execute(args)
		if err != nil {
			t.Fatalf("case %d: Execute: %v\n%s", i, err, text)
		}
		for k := range want {
			if d := maxRelDiff(t, got[k], want[k]); d > 1e-5 {
				t.Errorf("case %d result %d: max relative difference %g\ngot  %v\nwant %v\njaxpr eqns: %d", i, k, d, got[k], want[k], len(j.Eqns))
			}
		}
	}
	t.Logf("%d of %d random jaxprs ran (the others fail in the evaluator too)", ran, n)
	if ran < n/2 {
		t.Errorf("only %d of %d random jaxprs could be evaluated", ran, n)
	}
}
