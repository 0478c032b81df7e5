package typecheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"os/exec"
	"strings"
	"testing"
)

// exportFile asks go list for the export data of a standard package.
func exportFile(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-export", "-f", "{{.Export}}", path).Output()
	if err != nil {
		t.Fatalf("go list -export %s: %v", path, err)
	}
	return strings.TrimSpace(string(out))
}

func TestCheckAgainstExportData(t *testing.T) {
	fset := token.NewFileSet()
	f, err := ParseFile(fset, "a.go", []byte(`package a

import (
	"strings"
	"unsafe"
)

// Upper is documented.
var Upper = strings.ToUpper("x")

var size = unsafe.Sizeof(Upper)
`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil && len(f.Comments) == 0 {
		t.Error("comments were dropped")
	}
	c := &Config{
		Path:   "example.com/a",
		Sizes:  types.SizesFor("gc", "amd64"),
		Import: ExportData(fset, map[string]string{"strings": "strings"}, map[string]string{"strings": exportFile(t, "strings")}),
	}
	pkg, info, err := c.Check(fset, []*ast.File{f})
	if err != nil {
		t.Fatal(err)
	}
	if got := pkg.Scope().Lookup("Upper").Type().String(); got != "string" {
		t.Errorf("Upper has type %s, want string", got)
	}
	if len(info.Uses) == 0 || len(info.Types) == 0 || len(info.FileVersions) != 1 {
		t.Errorf("types.Info not filled: %d uses, %d types, %d file versions", len(info.Uses), len(info.Types), len(info.FileVersions))
	}
}

func TestCheckErrors(t *testing.T) {
	fset := token.NewFileSet()
	f, err := ParseFile(fset, "b.go", []byte("package b\n\nimport \"nosuch\"\n\nvar X int = \"s\"\n\nvar _ = nosuch.Y\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := &Config{Path: "b", Import: ExportData(fset, nil, nil)}
	if _, _, err := c.Check(fset, []*ast.File{f}); err == nil || !strings.Contains(err.Error(), `can't resolve import "nosuch"`) {
		t.Errorf("first error %v, want the unresolved import", err)
	}
	var errs []error
	c.Error = func(err error) { errs = append(errs, err) }
	pkg, _, _ := c.Check(fset, []*ast.File{f})
	if len(errs) < 2 || pkg.Scope().Lookup("X") == nil {
		t.Errorf("with Error set the check should go on: %d errors %v, X %v", len(errs), errs, pkg.Scope().Lookup("X"))
	}
}
