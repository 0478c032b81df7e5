package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
	"github.com/jitlint/jitlint/jit/ir"
)

// TestSourceMap traces every traced function of the codelab and checks that
// every equation, nested ones included, points at the line of the codelab
// that staged it. Each case lists, per source line (found by a snippet of
// its text), the primitives that line stages.
func TestSourceMap(t *testing.T) {
	f32 := jit.Spec(jit.Float32, 4)
	w := jit.Ones(jit.Float32, 4)
	cases := []struct {
		name string
		fn   any
		args []any
		file string
		want map[string]string // snippet of a line → the primitives it stages
	}{
		{"F", F, []any{f32}, "step3_tracing.go", map[string]string{"return x.Pow(2).Add(1)": "integer_pow add"}},
		{"Heavy", Heavy, []any{f32}, "step4_compile.go", map[string]string{
			"y = y.Sin().Mul(y.Cos()).Add(y.Tanh())": strings.Repeat("sin cos mul tanh add ", 20)}},
		{"SumSquares", SumSquares, []any{f32}, "step5_recompile.go", map[string]string{"func SumSquares": "integer_pow reduce_sum"}},
		{"ReluWhere", ReluWhere, []any{f32}, "step6_control_flow.go", map[string]string{"func ReluWhere": "gt broadcast_in_dim select_n"}},
		// jit.Relu and jit.Softplus are jit's own: their equations belong to the Cond call.
		{"SoftOrSharp", SoftOrSharp, []any{jit.Spec(jit.Bool), f32}, "step6_control_flow.go", map[string]string{
			"return jit.Cond(sharp": "convert_element_type cond custom_jvp_call max sub ne add abs neg exp log1p add select_n custom_jvp_call jit max"}},
		{"PythonForLoop", PythonForLoop, []any{2, f32}, "step7_loops.go", map[string]string{
			"y = y.Sin().Add(y.Mul(0.01))": "sin mul add sin mul add"}},
		{"ScanLoop", ScanLoop, []any{2, f32}, "step7_loops.go", map[string]string{
			"y, _ := jit.ScanN(": "scan", "return y.Sin().Add(y.Mul(0.01)), struct{}{}": "sin mul add"}},
		{"MaskedMean", MaskedMean, []any{f32, f32}, "step8_padding.go", map[string]string{
			"return x.Mul(mask).Sum().Div(mask.Sum().Max(1))": "mul reduce_sum reduce_sum max div"}},
		{"Power", Power, []any{2, f32}, "step8_padding.go", map[string]string{"x = x.Mul(x)": "mul mul"}},
		{"Model", Model, []any{f32}, "step9_jaxpr.go", map[string]string{
			"return x.Tanh().Mul(x.Sin()).Add(x.Mul(x).Log1p())": "tanh sin mul mul log1p add"}},
		{"Apply", Apply, []any{Params{Layers: []jit.Array{w, w}, Scale: 2}, f32}, "step11_recap.go", map[string]string{
			"x = x.Mul(w)": "mul mul", "return x.Mul(p.Scale)": "mul"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var opts []jit.Option
			if _, ok := c.args[0].(int); ok {
				opts = append(opts, jit.StaticArgnums(0))
			}
			cj, err := jit.MakeJaxpr(c.fn, opts...)(c.args...)
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for snippet, prims := range c.want {
				line := lineOf(t, string(src), snippet)
				for _, p := range strings.Fields(prims) {
					want = append(want, p+" at "+c.file+":"+strconv.Itoa(line))
				}
			}
			var got []string
			walkEqns(cj.IR().Jaxpr, func(e *ir.Eqn) {
				if e.Source == nil {
					got = append(got, e.Prim+" at unknown")
					return
				}
				if abs, _ := filepath.Abs(c.file); e.Source.File != abs {
					got = append(got, e.Prim+" at "+e.Source.String())
					return
				}
				got = append(got, e.Prim+" at "+e.Source.Short())
			})
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("equations point at\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}

// lineOf returns the 1-based line of the only line of src containing snippet.
func lineOf(t *testing.T, src, snippet string) int {
	t.Helper()
	found := 0
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, snippet) {
			if found != 0 {
				t.Fatalf("%q occurs on lines %d and %d", snippet, found, i+1)
			}
			found = i + 1
		}
	}
	if found == 0 {
		t.Fatalf("%q not found", snippet)
	}
	return found
}

// walkEqns calls f on every equation of j and of the jaxprs nested in it.
func walkEqns(j *ir.Jaxpr, f func(*ir.Eqn)) {
	for _, e := range j.Eqns {
		f(e)
		for _, p := range e.Params {
			switch v := p.(type) {
			case *ir.ClosedJaxpr:
				walkEqns(v.Jaxpr, f)
			case []*ir.ClosedJaxpr:
				for _, c := range v {
					walkEqns(c.Jaxpr, f)
				}
			}
		}
	}
}
