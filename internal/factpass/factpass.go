// Package factpass runs go/analysis analyzers on one type-checked package
// the way unitchecker does: the facts of its dependencies come in as
// records (the object's package path and objectpath, the fact's type and
// its gob encoding), its own go out as records, so that any driver can
// keep them in a file (go vet -vettool=jitlint's .vetx files) or in
// memory (jitls's cache of its dependencies' facts), and a fact matches
// its object whatever types.Package the importer made for it.
package factpass

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"
)

// Record is one fact, as other packages see it.
type Record struct {
	Pkg  string // path of the package of the object
	Obj  string // objectpath of the object; "" for a package fact
	Type string // fact type (see typeName)
	Data []byte // gob encoding of the fact
}

// Key identifies a fact: its object (or package) and its type.
type Key struct{ Pkg, Obj, Type string }

// Facts are the facts of a package's dependencies, by key.
type Facts map[Key]Record

// Add adds records (a later record of the same key replaces an earlier one).
func (f Facts) Add(recs []Record) {
	for _, r := range recs {
		f[Key{r.Pkg, r.Obj, r.Type}] = r
	}
}

// Records returns the facts as a list (for passing on to importers).
func (f Facts) Records() []Record {
	out := make([]Record, 0, len(f))
	for _, r := range f {
		out = append(out, r)
	}
	return out
}

// typeName names the dynamic type of a fact.
func typeName(f analysis.Fact) string {
	t := reflect.TypeOf(f)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() + "." + t.Name()
}

// Producers are the analyzers among as and what they require that export
// facts: all a dependency needs to run (a check that requires a
// fact-producing analyzer has nothing to do there itself).
func Producers(as []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		if len(a.FactTypes) > 0 {
			out = append(out, a)
		}
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range as {
		visit(a)
	}
	return out
}

// Module is the module m (loaded by go/packages) as a Pass gives it to
// analyzers; nil for nil.
func Module(m *packages.Module) *analysis.Module {
	if m == nil {
		return nil
	}
	return &analysis.Module{Path: m.Path, Version: m.Version, GoVersion: m.GoVersion}
}

// Unit is one package to analyse.
type Unit struct {
	Fset         *token.FileSet
	Pkg          *types.Package
	Files        []*ast.File
	Info         *types.Info
	Sizes        types.Sizes
	Module       *analysis.Module // nil: unknown
	OtherFiles   []string
	IgnoredFiles []string
	// Deps are the facts of the package's dependencies.
	Deps Facts
	// Exported are the facts the package exported (filled in by Run).
	Exported []Record

	local    []localFact        // the package's own facts, in the order first exported
	localAt  map[localKey]int   // index in local
	exported map[localKey]int   // index in Exported
	paths    objectpath.Encoder // objectpaths, memoized per package
}

// localFact is a fact exported by the package being analysed.
type localFact struct {
	obj  types.Object // nil for a package fact
	fact analysis.Fact
}

// localKey identifies one of the package's own facts.
type localKey struct {
	obj types.Object // nil for a package fact
	typ string
}

// Result is one analyzer's outcome on the package.
type Result struct {
	Analyzer    *analysis.Analyzer
	Diagnostics []analysis.Diagnostic
	// Value is what the analyzer's Run returned.
	Value any
	Err   error
}

// Run runs roots and their prerequisites, prerequisites first, and returns
// the results of all of them, roots first in order.
func (u *Unit) Run(roots []*analysis.Analyzer) []*Result {
	done := map[*analysis.Analyzer]*Result{}
	var order []*Result
	var run func(a *analysis.Analyzer) *Result
	run = func(a *analysis.Analyzer) *Result {
		if r := done[a]; r != nil {
			return r
		}
		r := &Result{Analyzer: a}
		done[a] = r
		inputs := map[*analysis.Analyzer]any{}
		for _, req := range a.Requires {
			if rr := run(req); rr.Err != nil {
				r.Err = fmt.Errorf("prerequisite %s failed: %v", req.Name, rr.Err)
				return r
			}
			inputs[req] = done[req].Value
		}
		r.Value, r.Err = a.Run(u.newPass(a, inputs, r))
		order = append(order, r)
		return r
	}
	out := make([]*Result, 0, len(roots))
	for _, a := range roots {
		out = append(out, run(a))
	}
	for _, r := range order {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// newPass makes the Pass of analyzer a.
func (u *Unit) newPass(a *analysis.Analyzer, inputs map[*analysis.Analyzer]any, r *Result) *analysis.Pass {
	module := u.Module
	if module == nil {
		module = &analysis.Module{}
	}
	return &analysis.Pass{
		Analyzer:     a,
		Fset:         u.Fset,
		Files:        u.Files,
		OtherFiles:   u.OtherFiles,
		IgnoredFiles: u.IgnoredFiles,
		Pkg:          u.Pkg,
		TypesInfo:    u.Info,
		TypesSizes:   u.Sizes,
		Module:       module,
		ResultOf:     inputs,
		Report: func(d analysis.Diagnostic) {
			if err := validateFixes(u.Fset, a, d.SuggestedFixes); err != nil {
				fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
				d.SuggestedFixes = nil
			}
			r.Diagnostics = append(r.Diagnostics, d)
		},
		ReadFile: os.ReadFile,
		ImportObjectFact: func(obj types.Object, fact analysis.Fact) bool {
			return u.importFact(obj, "", fact)
		},
		ImportPackageFact: func(pkg *types.Package, fact analysis.Fact) bool {
			return u.importFact(nil, pkg.Path(), fact)
		},
		ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
			if obj.Pkg() != u.Pkg {
				panic(fmt.Sprintf("%s: fact about %s, which is not in package %s", a.Name, obj, u.Pkg.Path()))
			}
			u.exportFact(obj, fact)
		},
		ExportPackageFact: func(fact analysis.Fact) { u.exportFact(nil, fact) },
		AllObjectFacts: func() []analysis.ObjectFact {
			var out []analysis.ObjectFact
			for _, lf := range u.local {
				if lf.obj != nil {
					out = append(out, analysis.ObjectFact{Object: lf.obj, Fact: lf.fact})
				}
			}
			return out
		},
		AllPackageFacts: func() []analysis.PackageFact {
			var out []analysis.PackageFact
			for _, lf := range u.local {
				if lf.obj == nil {
					out = append(out, analysis.PackageFact{Package: u.Pkg, Fact: lf.fact})
				}
			}
			return out
		},
	}
}

// importFact finds the fact of ptr's type about obj (nil: the package
// pkgPath) and copies it into ptr.
func (u *Unit) importFact(obj types.Object, pkgPath string, ptr analysis.Fact) bool {
	typ := typeName(ptr)
	if (obj == nil && pkgPath == u.Pkg.Path()) || (obj != nil && obj.Pkg() == u.Pkg) {
		i, ok := u.localAt[localKey{obj, typ}]
		if ok {
			reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(u.local[i].fact).Elem())
		}
		return ok
	}
	key := Key{Pkg: pkgPath, Type: typ}
	if obj != nil {
		if obj.Pkg() == nil {
			return false
		}
		p, err := u.paths.For(obj)
		if err != nil {
			return false
		}
		key.Pkg, key.Obj = obj.Pkg().Path(), string(p)
	}
	rec, ok := u.Deps[key]
	if !ok {
		return false
	}
	return gob.NewDecoder(bytes.NewReader(rec.Data)).Decode(ptr) == nil
}

// exportFact records a fact about obj (nil: the package) and encodes it
// when other packages can name obj.
// A second fact of the same type about obj replaces the first.
func (u *Unit) exportFact(obj types.Object, fact analysis.Fact) {
	if u.localAt == nil {
		u.localAt, u.exported = map[localKey]int{}, map[localKey]int{}
	}
	key := localKey{obj, typeName(fact)}
	if i, ok := u.localAt[key]; ok {
		u.local[i].fact = fact
	} else {
		u.localAt[key] = len(u.local)
		u.local = append(u.local, localFact{obj, fact})
	}
	rec := Record{Pkg: u.Pkg.Path(), Type: key.typ}
	if obj != nil {
		p, err := u.paths.For(obj)
		if err != nil {
			return // not reachable from other packages
		}
		rec.Obj = string(p)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(fact); err != nil {
		return
	}
	rec.Data = buf.Bytes()
	if i, ok := u.exported[key]; ok {
		u.Exported[i] = rec
		return
	}
	u.exported[key] = len(u.Exported)
	u.Exported = append(u.Exported, rec)
}
