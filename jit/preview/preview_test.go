package preview

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
	"github.com/jitlint/jitlint/jit/preview/result"
)

func square(x jit.Array) jit.Array { return x.Mul(x) }

func branches(x jit.Array) jit.Array {
	return jit.Cond(x.Sum().Gt(0), func(a jit.Array) jit.Array { return a.Sin() }, func(a jit.Array) jit.Array { return a.Neg() }, x)
}

func explodes(x jit.Array) jit.Array { panic("boom") }

func power(n int, x jit.Array) jit.Array {
	for range n {
		x = x.Mul(x)
	}
	return x
}

// cases is what a generated harness passes to Run.
func cases(name string) *Case {
	spec := jit.Spec(jit.Float32, 4)
	values := func() []any { return []any{jit.Zeros(jit.Float32, 4)} }
	switch name {
	case "square":
		return &Case{Fn: jit.Jit(square), Specs: []any{spec}, Values: values}
	case "branches":
		return &Case{Fn: jit.Jit(branches), Specs: []any{spec}, Values: values}
	case "explodes":
		return &Case{Fn: jit.Jit(explodes), Specs: []any{spec}, Values: values}
	case "power":
		return &Case{Fn: jit.Jit(power, jit.StaticArgnums(0)), Specs: []any{3, spec}, Values: func() []any { return []any{jit.Zeros(jit.Float32, 4)} }}
	case "unjittable":
		return &Case{Fn: jit.Jit(42), Specs: []any{spec}}
	}
	return nil
}

// preview runs Run as the harness binary does, with the environment jitls
// sets, and returns what it wrote.
func preview(t *testing.T, name string, mode result.Mode) *result.Preview {
	t.Helper()
	out := filepath.Join(t.TempDir(), "result.json")
	t.Setenv(result.EnvFunction, name)
	t.Setenv(result.EnvMode, string(mode))
	t.Setenv(result.EnvOut, out)
	t.Run(result.TestName, func(t *testing.T) { Run(t, cases) })
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r result.Preview
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return &r
}

func TestTraceOnly(t *testing.T) {
	r := preview(t, "square", result.Jaxpr)
	if r.Failed() || r.Function != "square" || r.Eqns != 1 || !strings.Contains(r.Jaxpr, "mul a a") ||
		strings.Join(r.In, ",") != "f32[4]" || strings.Join(r.Out, ",") != "f32[4]" || r.Backend != "" {
		t.Errorf("preview of square: %+v", r)
	}
	// jit attributes an equation to the first frame outside jit/..., and
	// this package is inside it: where the user's lines come out is tested
	// with the real harness in a user's module (lsp's inlay hint tests).
	if len(r.Sources) != 1 || r.Sources[0].Prim != "mul" || strings.Join(r.Sources[0].Out, ",") != "f32[4]" || !strings.Contains(r.JaxprSources, "  # ") {
		t.Errorf("the equation's source: %+v\n%s", r.Sources, r.JaxprSources)
	}
}

func TestNestedJaxprsAreListedAfterTheirEquation(t *testing.T) {
	r := preview(t, "branches", result.Jaxpr)
	var prims []string
	for _, e := range r.Sources {
		prims = append(prims, e.Prim)
	}
	// cond's branches (its "branches" parameter: false first) follow it.
	if got := strings.Join(prims, " "); !strings.HasSuffix(got, "cond neg sin") {
		t.Errorf("equations: %s\n%s", got, r.Jaxpr)
	}
}

func TestMeasure(t *testing.T) {
	r := preview(t, "power", result.Measure)
	if r.Failed() || r.Eqns != 3 || r.Backend == "" {
		t.Errorf("measurement of power: %+v", r)
	}
}

func TestFailuresAreReported(t *testing.T) {
	if r := preview(t, "explodes", result.Jaxpr); r.Panic != "boom" || !strings.Contains(r.Stack, "explodes") {
		t.Errorf("a panic in user code: %+v", r)
	}
	if r := preview(t, "unjittable", result.Jaxpr); r.Error == "" || r.Panic != "" {
		t.Errorf("jit's rejection of a function: %+v", r)
	}
	if r := preview(t, "nope", result.Jaxpr); r.Error != "jitls has no preview for nope" {
		t.Errorf("an unknown name: %+v", r)
	}
}
