package jit

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"runtime"
	"strings"
)

// funcName returns a function's short name: "Heavy" for pkg.Heavy,
// "main.func1" for a closure in main.
func funcName(fn reflect.Value) string {
	if n, ok := transformedName(fn); ok {
		return n
	}
	f := runtime.FuncForPC(fn.Pointer())
	if f == nil {
		return "<func>"
	}
	name := f.Name()
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.Index(name, "."); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.Index(name, "["); i >= 0 {
		name = name[:i]
	}
	return strings.TrimSuffix(name, "-fm")
}

// funcSource returns where fn is defined (file:line) and its parameter names,
// read from the source file when it is available ("" names otherwise).
func funcSource(fn reflect.Value) (pos string, params []string) {
	if t, ok := transformedOf(fn); ok {
		return funcSource(t.inner) // where the transformed function is, and its parameters (Vmap and Grad keep them)
	}
	f := runtime.FuncForPC(fn.Pointer())
	if f == nil {
		return "", nil
	}
	file, line := f.FileLine(f.Entry())
	pos = fmt.Sprintf("%s:%d", file, line)
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return pos, nil
	}
	var ft *ast.FuncType
	ast.Inspect(af, func(n ast.Node) bool {
		if ft != nil {
			return false
		}
		switch d := n.(type) {
		case *ast.FuncDecl:
			if d.Body != nil && fset.Position(d.Pos()).Line <= line && line <= fset.Position(d.Body.Lbrace).Line {
				ft = d.Type
			}
		case *ast.FuncLit:
			if fset.Position(d.Pos()).Line <= line && line <= fset.Position(d.Body.Lbrace).Line {
				ft = d.Type
			}
		}
		return true
	})
	if ft == nil || ft.Params == nil {
		return pos, nil
	}
	for _, field := range ft.Params.List {
		if len(field.Names) == 0 {
			params = append(params, "")
		}
		for _, n := range field.Names {
			params = append(params, n.Name)
		}
	}
	if len(params) != fn.Type().NumIn() {
		return pos, nil
	}
	return pos, params
}
