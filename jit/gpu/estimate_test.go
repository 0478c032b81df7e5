package gpu

import (
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/gpu/internal/codelab"
)

// TestEstimateCompile: without a GPU and with ptxas, the estimate is the
// PTX generation plus a real ptxas run for sm_90, labelled as an estimate.
func TestEstimateCompile(t *testing.T) {
	if ok, _ := Available(); ok {
		if e, err := EstimateCompile(codelab.Heavy(1000, 20)); e != nil || err != nil {
			t.Errorf("with a working GPU: estimate %v, error %v; want neither (the measured figure stands)", e, err)
		}
		t.Skip("a GPU works here: nothing is estimated")
	}
	if _, err := findPtxas(); err != nil {
		t.Skipf("skipped: %v", err)
	}
	e, err := EstimateCompile(codelab.Heavy(1000, 20))
	if err != nil {
		t.Fatal(err)
	}
	if e.Target != "sm_90" || e.Generate <= 0 || e.Assemble <= 0 || e.Registers == 0 || e.Total() != e.Generate+e.Assemble {
		t.Errorf("estimate %+v", *e)
	}
	s := e.String()
	if !strings.HasPrefix(s, "gpu sm_90 ≈ ") || !strings.Contains(s, "(estimate: PTX ") || !strings.Contains(s, " + offline ptxas ") {
		t.Errorf("String() = %q, want it labelled as an offline-assembler estimate", s)
	}
	t.Log(s)
}

// TestEstimateCompileErrors: a JITLINT_PTXAS that does not exist, or a
// "ptxas" that rejects everything, is an error saying so.
func TestEstimateCompileErrors(t *testing.T) {
	if ok, _ := Available(); ok {
		t.Skip("a GPU works here: nothing is estimated")
	}
	for _, c := range []struct{ ptxas, want string }{
		{"/nonexistent/ptxas", "JITLINT_PTXAS=/nonexistent/ptxas"},
		{"/bin/false", "ptxas -arch=sm_90 rejected the PTX"},
	} {
		t.Setenv(PtxasEnv, c.ptxas)
		e, err := EstimateCompile(codelab.SquarePlusOne(4))
		if e != nil || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: estimate %v, error %v; want an error containing %q", c.ptxas, e, err, c.want)
		}
	}
}
