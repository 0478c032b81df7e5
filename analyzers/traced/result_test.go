package traced_test

import (
	"go/ast"
	"go/types"
	"slices"
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestResult checks the parts of the Result that drivers such as the
// language server read, on the unrolledloop/a fixture: the functions found
// through function values, and the static arguments of jit.Jit calls
// whose options come from a slice.
func TestResult(t *testing.T) {
	results := analysistest.Run(quiet{t}, fixturetest.Dir(t), traced.New(), "./unrolledloop/a")
	if len(results) != 1 {
		t.Fatalf("%d results, want 1", len(results))
	}
	r, ok := results[0].Result.(*traced.Result)
	if !ok || r == nil {
		t.Fatalf("result %T, want a *traced.Result", results[0].Result)
	}
	var names []string
	for _, fn := range r.Funcs {
		names = append(names, r.Where(fn.Node.Pos())+" "+fn.Name)
	}
	for _, want := range []string{
		"realworld_values.go:9 func literal",  // steps["sin"], jitted as jit.Jit(steps[name])
		"realworld_values.go:24 func literal", // returned by makeDecay
		"realworld_values.go:38 forward",      // reached through the rwBlock interface
		"realworld_values.go:54 func literal", // softsign, a field of the model
		"realworld_calls.go:12 rnnCell",       // called from traced code
	} {
		if !slices.Contains(names, want) {
			t.Errorf("traced functions lack %q; have %v", want, names)
		}
	}
	jitted := map[string]*traced.Jitted{}
	for _, j := range r.Jitted {
		if j.Target != nil {
			jitted[j.Target.Name] = j
		}
	}
	for name, want := range map[string]struct {
		static []int
		known  bool
	}{
		"Built":    {[]int{0}, true}, // opts := []jit.Option{...}; opts = append(opts, jit.StaticArgnums(0))
		"Optioned": {nil, false},     // opts ...jit.Option from the caller
		"Power":    {[]int{0}, true}, // written in the call
		"Deep":     {nil, true},      // no options
	} {
		j := jitted[name]
		if j == nil {
			t.Errorf("no jit.Jit call of %s", name)
			continue
		}
		if !slices.Equal(j.Static, want.static) || j.StaticKnown != want.known {
			t.Errorf("%s: Static %v, StaticKnown %v; want %v, %v", name, j.Static, j.StaticKnown, want.static, want.known)
		}
	}
	// IsTraced answers for identifiers: ShapeVar's x is traced, its n (a shape) is not.
	for _, fn := range r.Funcs {
		if fn.Name != "ShapeVar" {
			continue
		}
		traced := map[string]bool{}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if _, isVar := r.Info.Uses[id].(*types.Var); isVar {
					traced[id.Name] = traced[id.Name] || r.IsTraced(id)
				}
			}
			return true
		})
		if !traced["x"] || !traced["acc"] || traced["n"] || traced["i"] {
			t.Errorf("ShapeVar: traced identifiers %v, want x and acc only", traced)
		}
	}
}

// quiet ignores the fixture's want comments, which are unrolledloop's
// expectations, not the traced analyzer's.
type quiet struct{ *testing.T }

func (quiet) Errorf(string, ...any) {}
