package traced

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestBuildSkipsPackagesWithoutJit checks the cheap exit: a package that does
// not import jit gets a nil Result, whatever its code looks like.
func TestBuildSkipsPackagesWithoutJit(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", "package p\nimport \"fmt\"\nfunc F(x int) { for i := 0; i < 1000; i++ { fmt.Println(x) } }\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	if r := Build(fset, []*ast.File{f}, pkg, info); r != nil {
		t.Errorf("Build on a package without jit = %+v, want nil", r)
	}
	if !IsJitPath(JitPath) || !IsJitPath("example.com/m/vendor/"+JitPath) || IsJitPath("github.com/other/jit") {
		t.Error("IsJitPath")
	}
}
