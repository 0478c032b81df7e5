package gpu

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/gpu/internal/codelab"
	"github.com/jitlint/jitlint/gpu/internal/ptxsim"
	"github.com/jitlint/jitlint/jit/ir"
)

var update = flag.Bool("update", false, "rewrite the golden PTX files in testdata")

// TestGoldenPTX compares the PTX of known jaxprs (sm_90) with the files in
// testdata, and checks each is well formed (ptxsim.Parse: balanced braces,
// registers declared, labels defined, instructions known). Regenerate with
// go test ./gpu -run GoldenPTX -update after an intended change.
func TestGoldenPTX(t *testing.T) {
	cases := []struct {
		name string
		fn   *ir.ClosedJaxpr
	}{
		{"square_plus_one", codelab.SquarePlusOne(4)},
		{"heavy_2", codelab.Heavy(1000000, 2)},
		{"sum_squares", codelab.SumSquares(300)},
		{"relu_where", codelab.ReluWhere(5)},
		{"masked_mean", codelab.MaskedMean(16)},
		{"cond_softplus", codelab.CondSoftplus(3)},
		{"matmul", codelab.Matmul(33, 20, 17, false)},
		{"shapes", codelab.Shapes()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ptx, _, err := lowerPTX(c.fn, 9, 0)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ptxsim.Parse(ptx)
			if err != nil {
				t.Fatalf("generated PTX is malformed: %v", err)
			}
			if m.Version != "8.0" || m.Target != "sm_90" {
				t.Errorf("header .version %s .target %s, want 8.0 sm_90", m.Version, m.Target)
			}
			path := filepath.Join("testdata", c.name+".ptx")
			if *update {
				if err := os.WriteFile(path, []byte(ptx), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if ptx != string(want) {
				t.Errorf("PTX differs from %s (run with -update if intended); first difference near:\n%s", path, firstDiff(ptx, string(want)))
			}
		})
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "got:  " + al[i] + "\nwant: " + bl[i]
		}
	}
	return "(one is a prefix of the other)"
}

// TestPTXTargetFollowsDevice: the header names the device's compute
// capability.
func TestPTXTargetFollowsDevice(t *testing.T) {
	ptx, _, err := lowerPTX(codelab.SquarePlusOne(4), 8, 6)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ptx, ".target sm_86\n") || !strings.Contains(ptx, ".version 8.0\n") {
		t.Errorf("header:\n%s", ptx[:200])
	}
}

// TestHeavyIsOneKernel: the 20 chained sin*cos+tanh fuse into one kernel
// with no sin.approx (argument reduction instead).
func TestHeavyIsOneKernel(t *testing.T) {
	ptx, _, err := lowerPTX(codelab.Heavy(1000000, 20), 9, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(kernelNames(ptx)); n != 1 {
		t.Errorf("heavy lowers to %d kernels, want 1", n)
	}
	if strings.Contains(ptx, ".approx") {
		t.Error("heavy uses an .approx instruction")
	}
}

// TestLowerErrors: unsupported primitives and dtypes, and malformed
// jaxprs, give errors naming the problem (never a panic).
func TestLowerErrors(t *testing.T) {
	b := ir.NewBuilder()
	x := b.In(ir.BFloat16, 4)
	bf := b.Done("bf16", b.Same(ir.Sin, x))
	b = ir.NewBuilder()
	y := b.In(ir.Float32, 4)
	unknown := b.Done("unknown", b.Same("erf", y))
	b = ir.NewBuilder()
	z := b.In(ir.Float32, 4)
	bad := b.Done("bad", b.Op(ir.Transpose, ir.Params{"permutation": "oops"}, z.Aval, z))
	orphan := ir.NewVar(z.Aval) // sin with no operand
	broken := &ir.ClosedJaxpr{Name: "broken", Jaxpr: &ir.Jaxpr{Eqns: []*ir.Eqn{{Prim: ir.Sin, Out: []*ir.Var{orphan}}}, Outvars: []ir.Atom{orphan}}}
	for _, c := range []struct {
		cj   *ir.ClosedJaxpr
		want string
	}{
		{bf, "dtype bf16 is not supported by the gpu backend"},
		{unknown, "primitive erf is not supported by the gpu backend"},
		{bad, "parameter permutation is string, want []int"},
		{broken, "gpu: internal error lowering broken"},
	} {
		_, _, err := lowerPTX(c.cj, 9, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.cj.Name, err, c.want)
		}
	}
}
