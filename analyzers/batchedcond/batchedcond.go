package batchedcond

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/jitlint/jitlint/analyzers/internal/transformed"
	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var docGo string

// Analyzer is the batchedcond analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New())

// New returns a fresh batchedcond analyzer that uses tracer (made by traced.New).
func New(tracer *analysis.Analyzer) *analysis.Analyzer {
	return traced.NewAnalyzer("batchedcond", docGo, tracer, run)
}

func run(pass *analysis.Pass, r *traced.Result) {
	for _, t := range transformed.Find(r, "Vmap") {
		params := traced.ParamVars(r.Info, t.Type)
		mapped := mappedParams(r.Info, t.Call, params)
		deps := make([]map[types.Object]bool, len(mapped))
		for i, p := range mapped {
			deps[i] = transformed.Depends(r.Info, t.Body, []types.Object{p})
		}
		ast.Inspect(t.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := traced.JitFunc(r.Info, call)
			var arg ast.Expr
			switch name {
			case "Cond", "Switch":
				arg = call.Args[0]
			case "WhileLoop":
				arg = call.Args[2]
			default:
				return true
			}
			var on []string
			for i, p := range mapped {
				if transformed.Mentions(r.Info, []ast.Expr{arg}, deps[i]) {
					on = append(on, p.Name())
				}
			}
			if len(on) > 0 {
				pass.Report(analysis.Diagnostic{
					Pos: call.Pos(), End: call.End(),
					Message: message(name, on),
					Related: []analysis.RelatedInformation{{Pos: t.Call.Pos(), End: t.Call.End(),
						Message: fmt.Sprintf("%s is mapped by this jit.Vmap call", t.Name)}},
				})
			}
			return true
		})
	}
}

// message explains the cost of one batched branch or loop.
func message(name string, on []string) string {
	args := strings.Join(on, ", ")
	if name == "WhileLoop" {
		return fmt.Sprintf("jit.WhileLoop's carry depends on %s, which jit.Vmap maps: with a batched condition the loop runs until every "+
			"element is done (as long as its slowest element), freezing the finished ones with select_n", args)
	}
	what := "predicate"
	if name == "Switch" {
		what = "index"
	}
	return fmt.Sprintf("jit.%s's %s depends on %s, which jit.Vmap maps: under Vmap it becomes a select_n and every branch runs for "+
		"every element, so it costs the sum of the branches, not one of them; if the branches are cheap, jit.Where says so honestly, "+
		"otherwise keep the %s independent of the mapped arguments (jit.NotMapped)", name, what, args, what)
}

// mappedParams returns the parameters that hold arrays and are not marked
// jit.NotMapped by a jit.InAxes option of the Vmap call.
func mappedParams(info *types.Info, call *ast.CallExpr, params []*types.Var) []*types.Var {
	var axes []ast.Expr
	for _, opt := range call.Args[1:] {
		if c, ok := ast.Unparen(opt).(*ast.CallExpr); ok && traced.JitFunc(info, c) == "InAxes" {
			axes = c.Args
		}
	}
	var out []*types.Var
	for i, p := range params {
		if p == nil || !traced.ContainsArray(p.Type()) {
			continue
		}
		if i < len(axes) && isNotMapped(info, axes[i]) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// isNotMapped reports whether e is jit.NotMapped.
func isNotMapped(info *types.Info, e ast.Expr) bool {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		id = e.Sel
	case *ast.Ident:
		id = e
	default:
		return false
	}
	c, ok := info.Uses[id].(*types.Const)
	return ok && c.Name() == "NotMapped" && c.Pkg() != nil && traced.IsJitPath(c.Pkg().Path())
}
