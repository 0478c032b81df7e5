package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/packages"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/factpass"
	"github.com/jitlint/jitlint/internal/jitapi"
	"github.com/jitlint/jitlint/internal/typecheck"
)

// Loading for the command. The analyzers have something to do only in the
// packages that traced.NeedsFacts names (those that import jit, and the
// local module's packages that may declare a bucket chooser); every other
// dependency is only a source of types. So, as go vet -vettool=jitlint
// does, the command type-checks from source only the patterns' packages,
// the packages that need the analyzers and those that import them (so that
// the facts of the ones below reach them, one types.Package per path), and
// reads the types of all the others from the compiler's export data. The
// go list that names the packages does not ask for export data (that would
// compile the patterns' packages); a second one asks for it for just the
// others, which are usually in the build cache.

// loadMode is what the first go list reads: the package graph and files.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedModule

// loadPackages loads the packages of patterns (with their tests when
// tests) for the analyzers: the roots and the packages that need analysing
// with syntax and types from source, their Imports cut down to those.
func loadPackages(patterns []string, tests bool) ([]*packages.Package, error) {
	roots, err := packages.Load(&packages.Config{Mode: loadMode, Tests: tests}, patterns...)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	l := &loader{fset: fset, parsed: map[*packages.Package][]*ast.File{}, source: map[*packages.Package]bool{}}
	isRoot := map[*packages.Package]bool{}
	for _, p := range roots {
		isRoot[p] = true
	}
	var order []*packages.Package // dependencies first
	packages.Visit(roots, nil, func(p *packages.Package) { order = append(order, p) })
	for _, p := range order {
		l.source[p] = isRoot[p] || l.needsAnalysis(p) || slices.ContainsFunc(slices.Collect(maps.Values(p.Imports)), func(q *packages.Package) bool { return l.source[q] })
	}
	var others []string
	for _, p := range order {
		if !l.source[p] && p.ID == p.PkgPath && p.PkgPath != "unsafe" {
			others = append(others, p.PkgPath)
		}
	}
	// The export data is listed while the packages checked from source are
	// parsed.
	type listed struct {
		deps []*packages.Package
		err  error
	}
	done := make(chan listed, 1)
	go func() {
		var r listed
		if len(others) > 0 {
			r.deps, r.err = packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedExportFile}, others...)
		}
		done <- r
	}()
	for _, p := range order {
		if l.source[p] {
			l.parse(p)
		}
	}
	r := <-done
	if r.err != nil {
		return nil, r.err
	}
	exports := map[string]string{}
	for _, d := range r.deps {
		exports[d.PkgPath] = d.ExportFile
	}
	identity := map[string]string{}
	for path := range exports {
		identity[path] = path
	}
	l.exportData = typecheck.ExportData(fset, identity, exports)
	for _, p := range order {
		if l.source[p] {
			l.check(p)
		}
	}
	return roots, nil
}

// loader type-checks the packages of one load.
type loader struct {
	fset       *token.FileSet
	parsed     map[*packages.Package][]*ast.File
	source     map[*packages.Package]bool
	exportData func(path string) (*types.Package, error)
}

// needsAnalysis reports whether the analyzers must run on p for its facts
// (traced.NeedsFacts), parsing it when that depends on its declarations.
func (l *loader) needsAnalysis(p *packages.Package) bool {
	importsJit := slices.ContainsFunc(slices.Collect(maps.Keys(p.Imports)), jitapi.IsJitPath)
	module := factpass.Module(p.Module)
	if importsJit || !traced.LocalModule(module) {
		return importsJit
	}
	return traced.NeedsFacts(false, module, l.parse(p))
}

// parse parses p's files once; files that do not parse are left out (the
// error is p's).
func (l *loader) parse(p *packages.Package) []*ast.File {
	if files, ok := l.parsed[p]; ok {
		return files
	}
	var files []*ast.File
	for _, name := range p.CompiledGoFiles {
		f, err := typecheck.ParseFile(l.fset, name, nil)
		if f != nil {
			files = append(files, f)
		}
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				p.Errors = append(p.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		} else if err != nil {
			p.Errors = append(p.Errors, packages.Error{Pos: name, Msg: err.Error(), Kind: packages.ParseError})
		}
	}
	l.parsed[p] = files
	return files
}

// check type-checks p from source, its imports from source when they were
// checked so and from export data otherwise, and keeps in p.Imports only
// the packages checked from source (the analyzers run on those).
func (l *loader) check(p *packages.Package) {
	files := l.parse(p)
	var goVersion string
	if p.Module != nil && p.Module.GoVersion != "" {
		goVersion = "go" + p.Module.GoVersion
	}
	tc := &typecheck.Config{
		Path:      p.PkgPath,
		Sizes:     sizes,
		GoVersion: goVersion,
		Import: func(path string) (*types.Package, error) {
			q := p.Imports[path]
			switch {
			case q == nil:
				return nil, fmt.Errorf("could not import %s (not among %s's imports)", path, p.PkgPath)
			case l.source[q]:
				if q.Types == nil {
					return nil, fmt.Errorf("could not import %s", path)
				}
				return q.Types, nil
			}
			return l.exportData(q.PkgPath)
		},
		Error: func(err error) {
			p.TypeErrors = append(p.TypeErrors, err.(types.Error))
			p.Errors = append(p.Errors, typeError(err.(types.Error)))
		},
	}
	p.Types, p.TypesInfo, _ = tc.Check(l.fset, files)
	p.Fset, p.Syntax, p.TypesSizes = l.fset, files, sizes
	p.IllTyped = len(p.Errors) > 0
	for path, q := range p.Imports {
		if !l.source[q] {
			delete(p.Imports, path)
		}
	}
}

// typeError is a type error as go/packages reports it.
func typeError(e types.Error) packages.Error {
	return packages.Error{Pos: e.Fset.Position(e.Pos).String(), Msg: e.Msg, Kind: packages.TypeError}
}
