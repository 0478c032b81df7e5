package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/jitlint/jitlint/jit/internal/randjaxpr"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// TestRandomJaxprsMatchEval compares the CPU backend with the evaluator on
// many random jaxprs: elementwise chains over every dtype, broadcasts,
// reductions, selects, converts, layout operations and control flow, on
// small shapes and on shapes spanning several blocks (and goroutines).
func TestRandomJaxprsMatchEval(t *testing.T) {
	seeds := 600
	if testing.Short() {
		seeds = 100
	}
	configs := []randjaxpr.Options{
		{NumEqns: 10, DTypes: allDTypes},
		{NumEqns: 8, DTypes: []ir.DType{ir.Float32, ir.Int32, ir.Bool}, ControlFlow: true, Layout: true},
		{NumEqns: 12, MaxRank: 3, MaxDim: 40, DTypes: []ir.DType{ir.Float32, ir.Float64, ir.Int64}},
		{NumEqns: 6, MaxRank: 2, MaxDim: 300, DTypes: []ir.DType{ir.Float32, ir.BFloat16}, Layout: true},
	}
	fused := 0
	for seed := 0; seed < seeds; seed++ {
		opts := configs[seed%len(configs)]
		r := rand.New(rand.NewPCG(uint64(seed), 5))
		j, args := randjaxpr.New(r, opts)
		cj := &ir.ClosedJaxpr{Jaxpr: j}
		want, werr := eval.Closed(cj, args)
		ex, l := compileCJ(t, cj)
		for _, s := range l.prog.steps {
			if _, ok := s.(*kernel); ok {
				fused++
			}
		}
		got, gerr := ex.Execute(args)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("seed %d: errors differ: cpu %v, eval %v\n%s", seed, gerr, werr, l.Text())
		}
		if werr != nil {
			continue
		}
		if err := sameBuffers(got, want, 0); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, l.Text())
		}
	}
	if fused < seeds {
		t.Errorf("only %d fused kernels over %d random jaxprs: the kernels are not exercised", fused, seeds)
	}
}
