package wherenan

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/jitlint/jitlint/analyzers/internal/transformed"
	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var docGo string

// Analyzer is the wherenan analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New())

// New returns a fresh wherenan analyzer that uses tracer (made by traced.New).
func New(tracer *analysis.Analyzer) *analysis.Analyzer {
	return traced.NewAnalyzer("wherenan", docGo, tracer, run)
}

// singular are the Array methods whose derivative is infinite (or
// undefined) at values a predicate typically excludes.
var singular = map[string]string{
	"Sqrt":  "the derivative of Sqrt is infinite at 0",
	"Rsqrt": "the derivative of Rsqrt is infinite at 0",
	"Log":   "the derivative of Log is infinite at 0",
	"Log1p": "the derivative of Log1p is infinite at -1",
	"Pow":   "the derivative of a fractional power is infinite at 0",
	"Div":   "the derivative of a division is infinite where the divisor is 0",
}

var comparisons = map[string]bool{"Gt": true, "Ge": true, "Lt": true, "Le": true, "Eq": true, "Ne": true}

func run(pass *analysis.Pass, r *traced.Result) {
	done := map[token.Pos]bool{}
	for _, t := range transformed.Find(r, "Grad", "ValueAndGrad") {
		api := traced.JitFunc(r.Info, t.Call)
		for _, fn := range transformed.Reachable(r, t) {
			check(pass, r, fn, t, api, done)
		}
	}
}

// check reports the Where calls of fn (differentiated by t's call).
func check(pass *analysis.Pass, r *traced.Result, fn, t transformed.Target, api string, done map[token.Pos]bool) {
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 3 || traced.JitFunc(r.Info, call) != "Where" || done[call.Pos()] {
			return true
		}
		pred := call.Args[0]
		subjects := tested(r.Info, fn.Body, pred)
		for k := 1; k <= 2; k++ {
			op, operand, why := singularUse(r.Info, call.Args[k], subjects)
			if op == nil {
				continue
			}
			done[call.Pos()] = true
			jit := traced.JitImportName(r.File(call.Pos()))
			if jit == "" {
				jit = "jit"
			}
			p, o := types.ExprString(pred), types.ExprString(operand)
			safe := fmt.Sprintf("%s.Where(%s, %s, 1)", jit, p, o)
			where := "false"
			if k == 2 {
				safe = fmt.Sprintf("%s.Where(%s, 1, %s)", jit, p, o)
				where = "true"
			}
			via := ""
			if fn.Func != t.Func {
				via = fmt.Sprintf(" (through %s)", t.Name)
			}
			d := analysis.Diagnostic{
				Pos: call.Pos(), End: call.End(),
				Message: fmt.Sprintf("%s is differentiated by jit.%s%s, and where %s is %s the gradient of the unchosen branch %s is still "+
					"computed at the excluded values, where %s: the zero it is multiplied by gives NaN (0 × ∞), as in JAX. "+
					"Use the double where, substituting a safe value inside the branch too: %s",
					types.ExprString(call), api, via, p, where, types.ExprString(op), why, safe),
				Related: []analysis.RelatedInformation{{Pos: t.Call.Pos(), End: t.Call.End(),
					Message: fmt.Sprintf("%s is differentiated by this jit.%s call", t.Name, api)}},
				SuggestedFixes: []analysis.SuggestedFix{{
					Message:   "Use the double where: " + safe,
					TextEdits: []analysis.TextEdit{{Pos: operand.Pos(), End: operand.End(), NewText: []byte(safe)}},
				}},
			}
			pass.Report(d)
			break
		}
		return true
	})
}

// tested returns the expressions a predicate compares (x and y in x.Gt(y),
// literals left out), looking through a variable assigned a comparison.
func tested(info *types.Info, body *ast.BlockStmt, pred ast.Expr) []string {
	if id, ok := ast.Unparen(pred).(*ast.Ident); ok {
		if def := assignedOnce(info, body, info.ObjectOf(id)); def != nil {
			pred = def
		}
	}
	call, ok := ast.Unparen(pred).(*ast.CallExpr)
	if !ok {
		return nil
	}
	name, recv := traced.ArrayMethod(info, call)
	if !comparisons[name] || len(call.Args) != 1 {
		return nil
	}
	out := []string{types.ExprString(recv)}
	if _, lit := ast.Unparen(call.Args[0]).(*ast.BasicLit); !lit {
		out = append(out, types.ExprString(call.Args[0]))
	}
	return out
}

// assignedOnce returns the value of obj's only assignment in body, or nil.
func assignedOnce(info *types.Info, body *ast.BlockStmt, obj types.Object) ast.Expr {
	var val ast.Expr
	n := 0
	ast.Inspect(body, func(node ast.Node) bool {
		if as, ok := node.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.ObjectOf(id) == obj {
					val = as.Rhs[i]
					n++
				}
			}
		}
		return true
	})
	if n != 1 {
		return nil
	}
	return val
}

// singularUse finds in a branch a singular operation applied to one of the
// tested expressions (not below a nested Where, which guards it) and
// returns the call, its operand and why it is singular.
func singularUse(info *types.Info, branch ast.Expr, subjects []string) (op *ast.CallExpr, operand ast.Expr, why string) {
	if len(subjects) == 0 {
		return nil, nil, ""
	}
	ast.Inspect(branch, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || op != nil {
			return op == nil
		}
		if traced.JitFunc(info, call) == "Where" {
			return false
		}
		name, recv := traced.ArrayMethod(info, call)
		reason, ok := singular[name]
		if !ok {
			return true
		}
		target := recv
		switch name {
		case "Div":
			target = call.Args[0]
		case "Pow":
			if !fractional(call.Args[0]) {
				return true
			}
		}
		for _, s := range subjects {
			if types.ExprString(target) == s {
				op, operand, why = call, target, reason
				return false
			}
		}
		return true
	})
	return op, operand, why
}

// fractional reports whether e is a float literal that is not an integer.
func fractional(e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.FLOAT {
		return false
	}
	v, err := strconv.ParseFloat(lit.Value, 64)
	return err == nil && v != float64(int64(v))
}
