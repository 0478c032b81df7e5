package gpu

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jitlint/jitlint/jit/gpu/internal/codelab"
	"github.com/jitlint/jitlint/jit/internal/randjaxpr"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// realBackend returns the CUDA backend, skipping the test without a GPU.
func realBackend(t *testing.T) *Backend {
	t.Helper()
	if ok, reason := Available(); !ok {
		t.Skip("no GPU: " + reason)
	}
	b, _ := Open()
	return b.(*Backend)
}

// TestDeviceCodelab runs every codelab function (full codelab sizes) on the
// GPU and compares with the reference evaluator.
func TestDeviceCodelab(t *testing.T) {
	b := realBackend(t)
	t.Logf("device: %s", b.Describe())
	for _, c := range codelab.Cases(1_000_000, 200) {
		t.Run(c.Name, func(t *testing.T) {
			want, err := eval.Closed(c.Fn, c.Args)
			if err != nil {
				t.Fatalf("eval: %v", err)
			}
			low, err := b.Lower(c.Fn)
			if err != nil {
				t.Fatal(err)
			}
			exe, err := low.Compile()
			if err != nil {
				t.Fatalf("%v", err)
			}
			got, err := exe.Execute(c.Args)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if d := maxRelDiff(t, got[i], want[i]); d > 1e-4 {
					t.Errorf("result %d: max relative difference %g", i, d)
				}
			}
			t.Logf("driver JIT %v, run %v", exe.CompileDetail().DriverJIT, exe.(*Executable).LastRunTime())
		})
	}
}

// TestDeviceRandomJaxprs runs random jaxprs on the GPU against the evaluator.
func TestDeviceRandomJaxprs(t *testing.T) {
	b := realBackend(t)
	r := rand.New(rand.NewPCG(3, 5))
	for i := range 100 {
		j, args := randjaxpr.New(r, randjaxpr.Options{NumInputs: 1 + r.IntN(3), NumEqns: 4 + r.IntN(8),
			DTypes: []ir.DType{ir.Float32, ir.Int32, ir.Float64}, ControlFlow: i%2 == 1})
		cj := &ir.ClosedJaxpr{Jaxpr: j, Name: "random"}
		want, err := eval.Closed(cj, args)
		if err != nil {
			continue
		}
		low, err := b.Lower(cj)
		if err != nil {
			t.Fatal(err)
		}
		exe, err := low.Compile()
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, low.Text())
		}
		got, err := exe.Execute(args)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		for k := range want {
			if d := maxRelDiff(t, got[k], want[k]); d > 1e-5 {
				t.Errorf("case %d result %d: max relative difference %g", i, k, d)
			}
		}
	}
}

// TestDeviceTimerAndErrors: events measure a positive time, and a bad PTX
// module is reported with the driver's error name and log.
func TestDeviceTimerAndErrors(t *testing.T) {
	b := realBackend(t)
	stop, err := b.dev.Timer()
	if err != nil {
		t.Fatal(err)
	}
	if d, err := stop(); err != nil || d < 0 || d > time.Second {
		t.Errorf("timer: %v, %v", d, err)
	}
	_, err = b.dev.LoadModule(moduleHeader(9, 0, "") + ".visible .entry bad(\n)\n{\n\tfoo.bar %r1;\n\tret;\n}\n")
	if err == nil {
		t.Fatal("the driver accepted malformed PTX")
	}
	t.Logf("bad PTX error: %v", err)
}
