package traced

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Finding is a problem that a function shows when one of its parameters
// holds a traced value.
type Finding struct {
	Param   int    // index of the parameter
	Pos     string // file:line of the problem, in the function's package
	Message string // the diagnostic the analyzer would give there
}

// Summary is the content of an analyzer's fact about an exported function:
// what goes wrong when it is called from traced code. Analyzers embed it in
// their own fact type (facts belong to one analyzer).
type Summary struct {
	Findings []Finding
}

func (s *Summary) summary() *Summary { return s }

// String lists the findings, for analysistest's fact expectations.
func (s *Summary) String() string {
	parts := make([]string, len(s.Findings))
	for i, f := range s.Findings {
		msg, _, _ := strings.Cut(f.Message, ";")
		parts[i] = fmt.Sprintf("param %d at %s: %s", f.Param, f.Pos, msg)
	}
	return "traced-call problems: " + strings.Join(parts, "; ")
}

// SummaryFact is a fact type that embeds Summary.
type SummaryFact interface {
	analysis.Fact
	summary() *Summary
}

// CheckFunc reports the problems of one traced function of r.
type CheckFunc func(r *Result, fn *Func, report func(analysis.Diagnostic))

// checkPackage runs check on every traced function of the package, reports the
// calls into other packages whose facts (made by newFact) say they misuse a
// traced argument, and exports facts for the package's exported functions
// that take arrays.
func checkPackage(pass *analysis.Pass, r *Result, check CheckFunc, newFact func() SummaryFact) {
	for _, fn := range r.Funcs {
		check(r, fn, pass.Report)
	}
	checkExternal(pass, r, newFact, pass.Report)
	exportSummaries(pass, r, check, newFact)
}

// checkExternal reports the calls of r.External whose callee's fact has a
// finding for a parameter that receives a traced value.
func checkExternal(pass *analysis.Pass, r *Result, newFact func() SummaryFact, report func(analysis.Diagnostic)) {
	for _, ec := range r.External {
		fact := newFact()
		if !pass.ImportObjectFact(ec.Callee, fact) {
			continue
		}
		name := calleeName(ec.Callee)
		for _, f := range fact.summary().Findings {
			if !ec.HasParam(f.Param) {
				continue
			}
			d := analysis.Diagnostic{
				Pos: ec.Pos, End: ec.End,
				Message: fmt.Sprintf("%s receives a traced value here, and at %s: %s", name, f.Pos, f.Message),
			}
			if ec.Callee.Pos().IsValid() {
				d.Related = []analysis.RelatedInformation{{Pos: ec.Callee.Pos(), Message: name + " is declared here"}}
			}
			report(d)
		}
	}
}

// calleeName is pkg.F or pkg.T.M.
func calleeName(fn *types.Func) string {
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != nil {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}

// exportSummaries exports a fact for each exported function with array
// parameters that would have problems if called with traced arguments.
// Parameters already traced in the function's own package are left out:
// their problems are reported there.
func exportSummaries(pass *analysis.Pass, r *Result, check CheckFunc, newFact func() SummaryFact) {
	r.exportedFuncs(pass, func(fd *ast.FuncDecl, obj *types.Func) {
		fact := newFact()
		s := fact.summary()
		seen := map[string]bool{}
		params := ParamVars(r.Info, fd.Type)
		for _, i := range arrayParams(obj, nil) {
			if i < len(params) && r.tainted[params[i]] {
				continue
			}
			sub := r.BuildFrom(pass.Pkg, fd, i)
			collect := func(d analysis.Diagnostic) {
				f := Finding{Param: i, Pos: r.Where(d.Pos), Message: d.Message}
				if key := fmt.Sprint(f); !seen[key] {
					seen[key] = true
					s.Findings = append(s.Findings, f)
				}
			}
			for _, fn := range sub.Funcs {
				check(sub, fn, collect)
			}
			checkExternal(pass, sub, newFact, collect)
		}
		if len(s.Findings) > 0 {
			pass.ExportObjectFact(obj, fact)
		}
	})
}
