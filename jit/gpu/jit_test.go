package gpu_test

import (
	"math"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
	"github.com/jitlint/jitlint/jit/gpu"
	"github.com/jitlint/jitlint/jit/gpu/internal/devapi"
	"github.com/jitlint/jitlint/jit/gpu/internal/ptxsim"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// TestTracedCodelab lowers the jaxprs the jit package's tracer stages for
// the codelab's functions (not hand-built ones) and runs them through the
// PTX interpreter, against the reference evaluator.
func TestTracedCodelab(t *testing.T) {
	vec := jit.FromSlice([]float32{-1, -0.5, 0, 0.5, 1})
	cases := []struct {
		name string
		fn   any
		args []any
	}{
		{"square_plus_one", func(x jit.Array) jit.Array { return x.Pow(2).Add(1) }, []any{vec}},
		{"heavy", func(x jit.Array) jit.Array {
			y := x
			for range 20 {
				y = y.Sin().Mul(y.Cos()).Add(y.Tanh())
			}
			return y
		}, []any{jit.Arange(300, jit.Float32)}},
		{"sum_squares", func(x jit.Array) jit.Array { return x.Pow(2).Sum() }, []any{jit.Arange(100, jit.Float32)}},
		{"relu_where", func(x jit.Array) jit.Array { return jit.Where(x.Gt(0), x, 0.0) }, []any{vec}},
		{"cond", func(s, x jit.Array) jit.Array { return jit.Cond(s, jit.Relu, jit.Softplus, x) }, []any{jit.Scalar(false), vec}},
		{"scan", func(x jit.Array) jit.Array {
			y, _ := jit.ScanN(func(y jit.Array) (jit.Array, struct{}) { return y.Sin().Add(y.Mul(0.01)), struct{}{} }, x, 20)
			return y
		}, []any{vec}},
		{"masked_mean", func(x, m jit.Array) jit.Array { return x.Mul(m).Sum().Div(m.Sum().Max(1)) },
			[]any{jit.FromSlice([]float32{1, 2, 3, 0}), jit.FromSlice([]float32{1, 1, 1, 0})}},
		{"step9", func(x jit.Array) jit.Array { return x.Tanh().Mul(x.Sin()).Add(x.Mul(x).Log1p()) }, []any{vec}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cj, err := jit.MakeJaxpr(c.fn)(c.args...)
			if err != nil {
				t.Fatal(err)
			}
			var args []*ir.Buffer
			for _, a := range c.args {
				args = append(args, bufferOf(t, a.(jit.Array)))
			}
			want, err := eval.Closed(cj.IR(), args)
			if err != nil {
				t.Fatal(err)
			}
			low, err := devapi.NewBackend(ptxsim.NewDevice()).Lower(cj.IR())
			if err != nil {
				t.Fatalf("%v\n%s", err, cj)
			}
			exe, err := low.Compile()
			if err != nil {
				t.Fatal(err)
			}
			got, err := exe.Execute(args)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				for j := range want[i].Len() {
					a, b := got[i].At(j), want[i].At(j)
					if math.Abs(a-b) > 1e-5*max(1, math.Abs(b)) {
						t.Fatalf("result %d[%d] = %v, want %v\n%s", i, j, a, b, cj)
					}
				}
			}
		})
	}
}

// bufferOf copies an array's values into an ir.Buffer.
func bufferOf(t *testing.T, a jit.Array) *ir.Buffer {
	t.Helper()
	b := ir.NewBuffer(a.Dtype(), a.Shape())
	vals := a.Float64s()
	for i, v := range vals {
		b.Set(i, v)
	}
	return b
}

// TestRegisteredByImport: importing the package registers "gpu" with jit,
// so asking for it gives the driver's verdict (nil with a GPU, the reason
// without one), never jit's "not linked" error.
func TestRegisteredByImport(t *testing.T) {
	err := jit.BackendError("gpu")
	if err != nil && (strings.Contains(err.Error(), "not linked") || !strings.Contains(err.Error(), "gpu backend unavailable")) {
		t.Errorf("BackendError(gpu) with the package imported: %v", err)
	}
	if ok, _ := gpu.Available(); (err == nil) != ok {
		t.Errorf("BackendError(gpu) = %v but Available() = %v", err, ok)
	}
}
