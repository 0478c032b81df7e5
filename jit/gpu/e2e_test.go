package gpu

import (
	"math"
	"testing"

	"github.com/jitlint/jitlint/jit/gpu/internal/codelab"
	"github.com/jitlint/jitlint/jit/gpu/internal/ptxsim"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// compileSim lowers and compiles cj for the PTX interpreter.
func compileSim(t *testing.T, cj *ir.ClosedJaxpr) (*Executable, *ptxsim.Device, string) {
	t.Helper()
	dev := ptxsim.NewDevice()
	low, err := newBackend(dev).Lower(cj)
	if err != nil {
		t.Fatalf("Lower: %v", err)
	}
	exe, err := low.Compile()
	if err != nil {
		t.Fatalf("Compile: %v\n%s", err, low.Text())
	}
	return exe.(*Executable), dev, low.Text()
}

// maxRelDiff compares two buffers elementwise: |a-b| / max(1, |b|), with
// matching NaNs and infinities counting as equal.
func maxRelDiff(t *testing.T, got, want *ir.Buffer) float64 {
	t.Helper()
	if !got.Aval().TypeMatch(want.Aval()) {
		t.Fatalf("result is %v, want %v", got.Aval(), want.Aval())
	}
	worst := 0.0
	for i := range want.Len() {
		a, b := got.At(i), want.At(i)
		if a == b || math.IsNaN(a) && math.IsNaN(b) {
			continue
		}
		worst = max(worst, math.Abs(a-b)/max(1, math.Abs(b)))
	}
	return worst
}

// TestCodelabAgainstEval runs every codelab function through lowering,
// PTX, the interpreter and the host-driven executor, and compares with the
// reference evaluator.
func TestCodelabAgainstEval(t *testing.T) {
	for _, c := range codelab.Cases(1000, 20) {
		t.Run(c.Name, func(t *testing.T) {
			want, err := eval.Closed(c.Fn, c.Args)
			if err != nil {
				t.Fatalf("eval: %v", err)
			}
			exe, _, _ := compileSim(t, c.Fn)
			got, err := exe.Execute(c.Args)
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d results, want %d", len(got), len(want))
			}
			for i := range want {
				if d := maxRelDiff(t, got[i], want[i]); d > 2e-5 {
					t.Errorf("result %d: max relative difference %g\ngot  %v\nwant %v", i, d, got[i], want[i])
				}
			}
		})
	}
}
