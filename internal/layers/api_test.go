package layers

import (
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// allowedVars are the exported package-level variables that are not
// mutable state users should set, by "package.Name", with the reason.
var allowedVars = map[string]string{
	// Owned by the analyzers (their rework settles the package's API):
	// a func Names() []string would do.
	"analyzers.Names": "the suite's analyzer names, read by the golangci plugin and the tests",
}

// publicPackages loads the module's packages that users can import (not
// commands, not under an internal directory), with their types.
func publicPackages(t *testing.T) []*packages.Package {
	t.Helper()
	g := load(t)
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: g.root}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var public []*packages.Package
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
		if p.Name != "main" && !slices.Contains(strings.Split(p.PkgPath, "/"), "internal") {
			public = append(public, p)
		}
	}
	if len(public) == 0 {
		t.Fatal("no public package loaded")
	}
	return public
}

// TestNoExportedVariables: state in the public API is set through functions
// (as jit.SetLogOutput and eval.SetPrintOutput), never by assigning to an
// exported variable, which anyone could do at any time, racing with its
// readers. go/analysis's convention of an exported Analyzer variable is the
// exception.
func TestNoExportedVariables(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range publicPackages(t) {
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			v, ok := scope.Lookup(name).(*types.Var)
			if !ok || !v.Exported() {
				continue
			}
			key := p.Types.Name() + "." + name
			if _, ok := allowedVars[key]; ok || isAnalyzerVar(v) {
				seen[key] = true
				continue
			}
			t.Errorf("%s.%s is an exported package-level variable (%s); unexport it and, if users must set it, add a function that does, safe for concurrent use",
				p.PkgPath, name, types.TypeString(v.Type(), types.RelativeTo(p.Types)))
		}
	}
	for key := range allowedVars {
		if !seen[key] {
			t.Errorf("allowedVars lists %s, which is no longer an exported variable; delete it", key)
		}
	}
}

// isAnalyzerVar reports whether v is a go/analysis Analyzer variable: named
// Analyzer, of type *analysis.Analyzer.
func isAnalyzerVar(v *types.Var) bool {
	ptr, ok := v.Type().(*types.Pointer)
	if !ok || v.Name() != "Analyzer" {
		return false
	}
	named, ok := ptr.Elem().(*types.Named)
	return ok && named.Obj().Pkg().Path() == "golang.org/x/tools/go/analysis" && named.Obj().Name() == "Analyzer"
}

// TestExportedTypesAreNameable: an exported field, parameter, result or
// method of the public API has no type that users cannot name (unexported,
// or from an internal package): they could not declare a variable of it.
func TestExportedTypesAreNameable(t *testing.T) {
	for _, p := range publicPackages(t) {
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if !obj.Exported() {
				continue
			}
			where := p.PkgPath + "." + name
			switch obj := obj.(type) {
			case *types.TypeName:
				checkDecl(t, where, obj.Type())
			default:
				checkType(t, where, obj.Type())
			}
		}
	}
}

// checkDecl checks an exported type: its exported fields, and the
// signatures of its exported methods.
func checkDecl(t *testing.T, where string, typ types.Type) {
	if st, ok := typ.Underlying().(*types.Struct); ok {
		for f := range st.Fields() {
			if f.Exported() {
				checkType(t, where+"."+f.Name(), f.Type())
			}
		}
	} else {
		switch typ.Underlying().(type) {
		case *types.Interface: // its methods are in the method set below
		case *types.Signature:
			// A function type's parameters are for the package that calls
			// it: type Option func(*options) is the functional-options idiom.
		default:
			checkType(t, where, typ.Underlying())
		}
	}
	for m := range types.NewMethodSet(types.NewPointer(typ)).Methods() {
		if m.Obj().Exported() {
			checkType(t, where+"."+m.Obj().Name(), m.Type())
		}
	}
}

// checkType reports the unnameable named types that typ mentions.
func checkType(t *testing.T, where string, typ types.Type) {
	t.Helper()
	switch typ := typ.(type) {
	case *types.Named:
		obj := typ.Obj()
		if obj.Pkg() != nil && (!obj.Exported() || slices.Contains(strings.Split(obj.Pkg().Path(), "/"), "internal")) {
			t.Errorf("%s has the type %s, which users cannot name; export the type (with a doc comment) or unexport %s",
				where, types.TypeString(typ, nil), where[strings.LastIndex(where, "/")+1:])
		}
		for a := range typ.TypeArgs().Types() {
			checkType(t, where, a)
		}
	case *types.Pointer:
		checkType(t, where, typ.Elem())
	case *types.Slice:
		checkType(t, where, typ.Elem())
	case *types.Array:
		checkType(t, where, typ.Elem())
	case *types.Chan:
		checkType(t, where, typ.Elem())
	case *types.Map:
		checkType(t, where, typ.Key())
		checkType(t, where, typ.Elem())
	case *types.Signature:
		for v := range typ.Params().Variables() {
			checkType(t, where, v.Type())
		}
		for v := range typ.Results().Variables() {
			checkType(t, where, v.Type())
		}
	case *types.Struct:
		for f := range typ.Fields() {
			if f.Exported() {
				checkType(t, where+"."+f.Name(), f.Type())
			}
		}
	}
}
