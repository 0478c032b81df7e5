package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// vetPass runs analyzers on one package for the go vet driver.
type vetPass struct {
	fset     *token.FileSet
	pkg      *types.Package
	files    []*ast.File
	info     *types.Info
	cfg      *unitchecker.Config
	deps     map[factKey]factRecord
	local    []localFact
	exported []factRecord
}

// result is one analyzer's outcome on the package.
type result struct {
	a     *analysis.Analyzer
	diags []analysis.Diagnostic
	err   error
}

// analyze runs roots and their prerequisites, prerequisites first, and
// returns the roots' results.
func (v *vetPass) analyze(roots []*analysis.Analyzer) []result {
	done := map[*analysis.Analyzer]*result{}
	values := map[*analysis.Analyzer]any{}
	var run func(a *analysis.Analyzer) *result
	run = func(a *analysis.Analyzer) *result {
		if r := done[a]; r != nil {
			return r
		}
		r := &result{a: a}
		done[a] = r
		inputs := map[*analysis.Analyzer]any{}
		for _, req := range a.Requires {
			if rr := run(req); rr.err != nil {
				r.err = fmt.Errorf("prerequisite %s failed: %v", req.Name, rr.err)
				return r
			}
			inputs[req] = values[req]
		}
		pass := v.newPass(a, inputs, r)
		values[a], r.err = a.Run(pass)
		return r
	}
	var out []result
	for _, a := range roots {
		out = append(out, *run(a))
	}
	return out
}

// newPass makes the Pass of analyzer a.
func (v *vetPass) newPass(a *analysis.Analyzer, inputs map[*analysis.Analyzer]any, r *result) *analysis.Pass {
	module := &analysis.Module{}
	if v.cfg.Module != nil {
		module = v.cfg.Module
	}
	return &analysis.Pass{
		Analyzer:     a,
		Fset:         v.fset,
		Files:        v.files,
		OtherFiles:   v.cfg.NonGoFiles,
		IgnoredFiles: v.cfg.IgnoredFiles,
		Pkg:          v.pkg,
		TypesInfo:    v.info,
		TypesSizes:   sizes,
		Module:       module,
		ResultOf:     inputs,
		Report: func(d analysis.Diagnostic) {
			if err := validateFixes(v.fset, a, d.SuggestedFixes); err != nil {
				fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
				d.SuggestedFixes = nil
			}
			r.diags = append(r.diags, d)
		},
		ReadFile: os.ReadFile,
		ImportObjectFact: func(obj types.Object, fact analysis.Fact) bool {
			return v.importFact(obj, "", fact)
		},
		ImportPackageFact: func(pkg *types.Package, fact analysis.Fact) bool {
			return v.importFact(nil, pkg.Path(), fact)
		},
		ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
			if obj.Pkg() != v.pkg {
				panic(fmt.Sprintf("%s: fact about %s, which is not in package %s", a.Name, obj, v.pkg.Path()))
			}
			v.exportFact(obj, fact)
		},
		ExportPackageFact: func(fact analysis.Fact) { v.exportFact(nil, fact) },
		AllObjectFacts: func() []analysis.ObjectFact {
			var out []analysis.ObjectFact
			for _, lf := range v.local {
				if lf.obj != nil {
					out = append(out, analysis.ObjectFact{Object: lf.obj, Fact: lf.fact})
				}
			}
			return out
		},
		AllPackageFacts: func() []analysis.PackageFact {
			var out []analysis.PackageFact
			for _, lf := range v.local {
				if lf.obj == nil {
					out = append(out, analysis.PackageFact{Package: v.pkg, Fact: lf.fact})
				}
			}
			return out
		},
	}
}
