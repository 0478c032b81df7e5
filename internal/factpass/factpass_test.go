package factpass

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// marked is a fact: the function's name starts with "Mark".
type marked struct{}

func (*marked) AFact()         {}
func (*marked) String() string { return "marked" }

// markAnalyzer exports a marked fact for functions named Mark*, and
// reports the calls of functions that have one (in this package or, through
// the records, in a dependency).
var markAnalyzer = &analysis.Analyzer{
	Name:       "mark",
	Doc:        "test analyzer",
	FactTypes:  []analysis.Fact{new(marked)},
	ResultType: reflect.TypeOf(0),
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && len(fd.Name.Name) > 4 && fd.Name.Name[:4] == "Mark" {
					pass.ExportObjectFact(pass.TypesInfo.Defs[fd.Name], new(marked))
				}
			}
		}
		calls := 0
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					var id *ast.Ident
					switch fun := call.Fun.(type) {
					case *ast.Ident:
						id = fun
					case *ast.SelectorExpr:
						id = fun.Sel
					}
					if obj := pass.TypesInfo.Uses[id]; obj != nil && pass.ImportObjectFact(obj, new(marked)) {
						pass.Reportf(call.Pos(), "calls marked %s", obj.Name())
						calls++
					}
				}
				return true
			})
		}
		return calls, nil
	},
}

// check type-checks one file as package path, importing from pkgs.
func check(t *testing.T, fset *token.FileSet, path, src string, pkgs map[string]*types.Package) *Unit {
	t.Helper()
	f, err := parser.ParseFile(fset, path+".go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importerFunc(func(p string) (*types.Package, error) {
		if q := pkgs[p]; q != nil {
			return q, nil
		}
		return importer.Default().Import(p)
	})}
	pkg, err := conf.Check(path, fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	pkgs[path] = pkg
	return &Unit{Fset: fset, Pkg: pkg, Files: []*ast.File{f}, Info: info, Deps: Facts{}}
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(p string) (*types.Package, error) { return f(p) }

// TestFactsCrossPackages: a's facts, exported as records, reach b through
// its Deps, even though b is checked against a types.Package made anew
// (as an importer reading export data would), and reach a itself locally.
func TestFactsCrossPackages(t *testing.T) {
	a := check(t, token.NewFileSet(), "a", "package a\n\nfunc MarkMe() {}\nfunc Other() {}\nfunc useA() { MarkMe() }\n", map[string]*types.Package{})
	res := a.Run([]*analysis.Analyzer{markAnalyzer})
	if res[0].Err != nil || len(res[0].Diagnostics) != 1 || len(a.Exported) != 1 || a.Exported[0].Obj != "MarkMe" {
		t.Fatalf("package a: %+v, exported %+v", res[0], a.Exported)
	}
	// b sees a fresh copy of a: the facts match by path and objectpath.
	fresh := map[string]*types.Package{}
	check(t, token.NewFileSet(), "a", "package a\n\nfunc MarkMe() {}\nfunc Other() {}\n", fresh)
	b := check(t, token.NewFileSet(), "b", "package b\n\nimport \"a\"\n\nfunc F() { a.MarkMe(); a.Other() }\n", fresh)
	b.Deps.Add(a.Exported)
	res = b.Run([]*analysis.Analyzer{markAnalyzer})
	if res[0].Err != nil || len(res[0].Diagnostics) != 1 || res[0].Diagnostics[0].Message != "calls marked MarkMe" || res[0].Value != 1 {
		t.Errorf("package b with a's facts: %+v", res[0])
	}
	// Without them, nothing.
	c := check(t, token.NewFileSet(), "c", "package c\n\nimport \"a\"\n\nfunc F() { a.MarkMe() }\n", fresh)
	if res := c.Run([]*analysis.Analyzer{markAnalyzer}); len(res[0].Diagnostics) != 0 {
		t.Errorf("package c without facts: %+v", res[0].Diagnostics)
	}
}

// counted is a fact with a value, for replacement.
type counted struct{ N int }

func (*counted) AFact() {}

// TestFactReplaced: a second fact of a type about an object replaces the
// first, for the package itself and in the records it exports.
func TestFactReplaced(t *testing.T) {
	u := check(t, token.NewFileSet(), "a", "package a\n\nfunc F() {}\nfunc G() {}\n", map[string]*types.Package{})
	f, g := u.Pkg.Scope().Lookup("F"), u.Pkg.Scope().Lookup("G")
	u.exportFact(f, &counted{1})
	u.exportFact(g, &counted{2})
	u.exportFact(f, &counted{3})
	var got counted
	if !u.importFact(f, "", &got) || got.N != 3 {
		t.Errorf("F's fact = %+v, want the second one (3)", got)
	}
	if len(u.Exported) != 2 || u.Exported[0].Obj != "F" || u.Exported[1].Obj != "G" {
		t.Fatalf("exported %+v, want one record each for F and G", u.Exported)
	}
	deps := Facts{}
	deps.Add(u.Exported)
	v := &Unit{Pkg: types.NewPackage("b", "b"), Deps: deps}
	if !v.importFact(f, "", &got) || got.N != 3 {
		t.Errorf("F's fact through the records = %+v, want 3", got)
	}
}
