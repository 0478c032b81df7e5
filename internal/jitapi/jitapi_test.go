package jitapi

import (
	"go/types"
	"os"
	"slices"
	"sort"
	"testing"

	"golang.org/x/tools/go/packages"
)

// realJit loads the jit package of this checkout (types from export data).
func realJit(t *testing.T) *types.Package {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes, Env: append(os.Environ(), "GOWORK=off")}
	pkgs, err := packages.Load(cfg, JitPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 || pkgs[0].Types == nil {
		t.Fatalf("loading %s: %v", JitPath, pkgs[0].Errors)
	}
	return pkgs[0].Types
}

// TestJitAPIClassified checks the analyzers' knowledge of jit against the
// real package: every exported function is a staging op or a non-op (and
// maybe a tracing entry point), every exported Array method a static
// property, a host conversion, a staging op or a non-op, each exactly once;
// no table names something jit does not have; and the host conversions'
// Go types are the methods' results. A name added to jit without an entry
// here fails this test: classify it in jitapi.go.
func TestJitAPIClassified(t *testing.T) {
	pkg := realJit(t)
	scope := pkg.Scope()
	funcs := map[string]bool{}
	for _, name := range scope.Names() {
		if fn, ok := scope.Lookup(name).(*types.Func); ok && fn.Exported() {
			funcs[name] = true
		}
	}
	methods := map[string]*types.Func{}
	array := scope.Lookup("Array").Type()
	for _, t := range []types.Type{array, types.NewPointer(array)} {
		ms := types.NewMethodSet(t)
		for i := 0; i < ms.Len(); i++ {
			if fn := ms.At(i).Obj().(*types.Func); fn.Exported() {
				methods[fn.Name()] = fn
			}
		}
	}

	funcTables := map[string][]string{"stagingFuncs": keys(stagingFuncs), "nonOps": keys(nonOps)}
	methodTables := map[string][]string{
		"staticMethods": keys(staticMethods), "hostConversions": keys(hostConversions),
		"stagingMethods": keys(stagingMethods), "nonOpMethods": keys(nonOpMethods),
	}
	classify(t, "function jit.", sortedKeys(funcs), funcTables)
	classify(t, "method jit.Array.", sortedKeys(methods), methodTables)
	wrapperMethods := map[string]bool{}
	fn := scope.Lookup("Func").Type()
	ms := types.NewMethodSet(types.NewPointer(fn))
	for i := 0; i < ms.Len(); i++ {
		if m := ms.At(i).Obj(); m.Exported() {
			wrapperMethods[m.Name()] = true
		}
	}
	classify(t, "method jit.Func.", sortedKeys(wrapperMethods), map[string][]string{"wrapperTracing": keys(wrapperTracing), "wrapperInspecting": keys(wrapperInspecting)})
	for _, name := range keys(tracingEntryPoints) {
		if !funcs[name] {
			t.Errorf("tracingEntryPoints names jit.%s, which jit does not have", name)
		}
	}
	for _, name := range keys(concreteConstructors) {
		if !stagingFuncs[name] {
			t.Errorf("concreteConstructors names jit.%s, which is not a staging function", name)
		}
	}
	for name, goType := range hostConversions {
		fn := methods[name]
		if fn == nil {
			continue // reported by classify
		}
		res := fn.Signature().Results()
		if res.Len() != 1 || types.TypeString(res.At(0).Type(), nil) != goType {
			t.Errorf("hostConversions[%q] = %q, but jit.Array.%s returns %s", name, goType, name, res)
		}
	}
}

// classify fails the test for each API name that is in no table or in
// more than one, and for each table entry that is not an API name.
func classify(t *testing.T, what string, api []string, tables map[string][]string) {
	t.Helper()
	for _, name := range api {
		var in []string
		for table, names := range tables {
			if slices.Contains(names, name) {
				in = append(in, table)
			}
		}
		sort.Strings(in)
		switch len(in) {
		case 0:
			t.Errorf("%s%s is not classified: add it to one of %v in analyzers/traced/jitapi.go", what, name, sortedKeys(tables))
		case 1:
		default:
			t.Errorf("%s%s is in %v: it must be in exactly one", what, name, in)
		}
	}
	for table, names := range tables {
		for _, name := range names {
			if !slices.Contains(api, name) {
				t.Errorf("%s names %s%s, which jit does not have", table, what, name)
			}
		}
	}
}

func keys[V any](m map[string]V) []string { return sortedKeys(m) }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
