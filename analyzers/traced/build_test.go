package traced

import (
	"go/ast"
	"testing"
)

// TestBuildSkipsPackagesWithoutJit checks the cheap exit: a package that does
// not import jit gets a nil Result, whatever its code looks like.
func TestBuildSkipsPackagesWithoutJit(t *testing.T) {
	fset, f, pkg, info := check(t, "package p\nimport \"fmt\"\nfunc F(x int) { for i := 0; i < 1000; i++ { fmt.Println(x) } }\n")
	if r := Build(fset, []*ast.File{f}, pkg, info); r != nil {
		t.Errorf("Build on a package without jit = %+v, want nil", r)
	}
	if !IsJitPath(JitPath) || !IsJitPath("example.com/m/vendor/"+JitPath) || IsJitPath("github.com/other/jit") {
		t.Error("IsJitPath")
	}
}
