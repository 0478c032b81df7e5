package traced

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// check type-checks src (package p of one file, p.go).
func check(t *testing.T, src string) (*token.FileSet, *ast.File, *types.Package, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return fset, f, pkg, info
}

func TestTrips(t *testing.T) {
	_, f, _, info := check(t, `package p
const n = 40
func f(m int, s []int) {
	for i := 0; i < 10; i++ {}
	for i := 1; i <= n; i++ {}
	for i := 99; i >= 0; i -= 3 {}
	for i := 10; i > 0; i-- {}
	for range 7 {}
	for i := 0; i < m; i++ {}
	for range m {}
	for _, v := range s { _ = v }
	for _, v := range []int{1, 2, 3} { _ = v }
	for {}
}`)
	want := []TripCount{
		{N: 10, Known: true}, {N: 40, Known: true}, {N: 34, Known: true}, {N: 10, Known: true},
		{N: 7, Known: true}, {Bound: &ast.Ident{}}, {Bound: &ast.Ident{}}, {Structure: true},
		{N: 3, Known: true, Structure: true}, {},
	}
	var got []TripCount
	ast.Inspect(f, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			got = append(got, Trips(info, s.(ast.Stmt)))
		}
		return true
	})
	if len(got) != len(want) {
		t.Fatalf("got %d loops, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.N != w.N || g.Known != w.Known || g.Structure != w.Structure || (g.Bound != nil) != (w.Bound != nil) {
			t.Errorf("loop %d: got %+v, want %+v", i, g, w)
		}
	}
}

func TestMaxInt(t *testing.T) {
	_, f, _, info := check(t, `package p
func g(int) {}
func f(m int) {
	g(5)
	for i := 0; i < 3; i++ { g(i) }
	for i := range 8 { g(i) }
	for _, v := range []int{4, 9, 2} { g(v) }
	for i := 0; i < m; i++ { g(i) }
	for i := 0; i < 3; i++ { i++; g(i) }
	g(m)
}`)
	type res struct {
		n  int64
		ok bool
	}
	want := []res{{5, true}, {2, true}, {7, true}, {9, true}, {0, false}, {0, false}, {0, false}}
	var got []res
	ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			v, ok := MaxInt(info, call.Args[0], stack)
			got = append(got, res{v, ok})
		}
		return true
	})
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d: MaxInt = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestExtractDoc(t *testing.T) {
	src := "// Package x does x.\n//\n// # Analyzer foo\n//\n// foo: find foos\n//\n// Body text.\npackage x\n"
	if got, want := ExtractDoc(src, "foo"), "find foos\n\nBody text."; got != want {
		t.Errorf("ExtractDoc = %q, want %q", got, want)
	}
}
