package gpu

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/gpu/internal/codelab"
	"github.com/jitlint/jitlint/jit/gpu/internal/ptxsim"
	"github.com/jitlint/jitlint/jit/ir"
)

var update = flag.Bool("update", false, "rewrite the golden PTX files in testdata")

// goldenCase is a program whose PTX is kept in testdata/<name>.ptx.
type goldenCase struct {
	name string
	fn   *ir.ClosedJaxpr
}

// goldenCases are the programs with golden PTX.
func goldenCases() []goldenCase {
	return []goldenCase{
		{"square_plus_one", codelab.SquarePlusOne(4)},
		{"heavy_2", codelab.Heavy(1000000, 2)},
		{"sum_squares", codelab.SumSquares(300)},
		{"relu_where", codelab.ReluWhere(5)},
		{"masked_mean", codelab.MaskedMean(16)},
		{"cond_softplus", codelab.CondSoftplus(3)},
		{"matmul", codelab.Matmul(33, 20, 17, false)},
		{"shapes", codelab.Shapes()},
	}
}

// TestGoldenPTX compares the PTX of known jaxprs (sm_90) with the files in
// testdata, and checks each is well formed (ptxsim.Parse: balanced braces,
// registers declared, labels defined, instructions known). Regenerate with
// go test ./gpu -run GoldenPTX -update after an intended change.
func TestGoldenPTX(t *testing.T) {
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			ptx, _, err := lowerPTX(c.fn, 9, 0)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ptxsim.Parse(ptx)
			if err != nil {
				t.Fatalf("generated PTX is malformed: %v", err)
			}
			if m.Version != "7.8" || m.Target != "sm_90" {
				t.Errorf("header .version %s .target %s, want 7.8 sm_90", m.Version, m.Target)
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
// capability (the nearest older known target for an unknown one) and the
// lowest PTX ISA version that target allows.
func TestPTXTargetFollowsDevice(t *testing.T) {
	for _, c := range []struct {
		major, minor    int
		target, version string
	}{
		{8, 0, "sm_80", "7.0"},
		{8, 6, "sm_86", "7.1"},
		{8, 9, "sm_89", "7.8"},
		{9, 0, "sm_90", "7.8"},
		{9, 5, "sm_90", "7.8"}, // unknown: PTX for sm_90, JIT-compiled by the driver
		{12, 0, "sm_120", "8.7"},
	} {
		ptx, _, err := lowerPTX(codelab.SquarePlusOne(4), c.major, c.minor)
		if err != nil {
			t.Fatal(err)
		}
		want := ".version " + c.version + "\n.target " + c.target + "\n"
		if !strings.Contains(ptx, want) || !strings.Contains(ptx, "// PTX ISA "+c.version+": the lowest for .target "+c.target+"; the instructions need 2.0 (cvta)\n") {
			t.Errorf("compute capability %d.%d: header\n%s\nwant %q and the reason", c.major, c.minor, ptx[:220], want)
		}
	}
}

// TestInstructionSetsVersion: an instruction that needs a newer PTX ISA
// than the target raises .version and the header says which; one missing
// from instructionISA is an error, never a silently wrong version.
func TestInstructionSetsVersion(t *testing.T) {
	instructionISA["min.NaN.f32"] = 70
	defer delete(instructionISA, "min.NaN.f32")
	h := moduleHeader(6, 0, "\tmin.NaN.f32 %f1, %f2, %f3;\n\t@%p1 bra $L;\n")
	if !strings.Contains(h, ".version 7.0\n.target sm_60\n") || !strings.Contains(h, "// PTX ISA 7.0: needed by min.NaN.f32\n") {
		t.Errorf("header:\n%s", h)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "instruction shfl.sync.bfly.b32 has no PTX ISA version") {
			t.Errorf("unknown opcode: recovered %v", r)
		}
	}()
	moduleHeader(9, 0, "\tshfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;\n")
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
