package previewer

import (
	"go/constant"
	"go/types"
	"strings"
	"testing"
)

// TestHarnessLinksGPUAsThePackageDoes: the preview harness imports the GPU
// estimate (and with it the GPU backend) only when the previewed package
// links the backend, directly or through an import; otherwise it imports
// only jit and the harness runtime.
func TestHarnessLinksGPUAsThePackageDoes(t *testing.T) {
	jitPkg := types.NewPackage(jitPath, "jit")
	gpuPkg := types.NewPackage(gpuPath, "gpu")
	lib := types.NewPackage("example.com/m/lib", "lib")
	lib.SetImports([]*types.Package{jitPkg, gpuPkg})
	for _, c := range []struct {
		name    string
		imports []*types.Package
		want    bool
	}{
		{"jit only", []*types.Package{jitPkg}, false},
		{"jit/gpu directly", []*types.Package{jitPkg, gpuPkg}, true},
		{"jit/gpu through a library", []*types.Package{jitPkg, lib}, true},
	} {
		pkg := types.NewPackage("example.com/m/p", "p")
		pkg.SetImports(c.imports)
		src, err := Generate("p", pkg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(src), `_ "`+gpuEstimatePath+`"`); got != c.want {
			t.Errorf("%s: harness links the GPU estimate: %v, want %v\n%s", c.name, got, c.want, src)
		}
	}
}

// TestGenerate checks the Case the harness builds for a target: the
// jitted function with its static arguments and transformations, the
// specs to trace with and the values to call with (static ones left out),
// pytrees of the package's and other packages' types.
func TestGenerate(t *testing.T) {
	jitPkg := types.NewPackage(jitPath, "jit")
	array := types.NewNamed(types.NewTypeName(0, jitPkg, "Array", nil), types.NewInterfaceType(nil, nil), nil)
	pkg := types.NewPackage("example.com/m/p", "p")
	other := types.NewPackage("example.com/m/q", "q")
	layer := types.NewNamed(types.NewTypeName(0, other, "Layer", nil), types.NewStruct([]*types.Var{
		types.NewField(0, other, "W", array, false), types.NewField(0, other, "B", array, false)}, nil), nil)
	param := func(name string, t types.Type) *types.Var { return types.NewParam(0, pkg, name, t) }
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(param("n", types.Typ[types.Int]), param("l", layer), param("x", array)),
		types.NewTuple(param("", array)), false)
	args, err := ParseArgs(" 3, {W: f32[2,2], B: f32[2]}, f32[4]")
	if err != nil {
		t.Fatal(err)
	}
	src, err := Generate("p", pkg, []Target{
		{Key: "F", Func: "F", Sig: sig, Args: args, Static: []int{0}},
		{Key: "F@x.go:3:4", Func: "F", Sig: sig, Args: args, Static: []int{0},
			Transforms: []Transform{{API: "Vmap", Opts: []Option{{Name: "InAxes", Args: []constant.Value{constant.MakeInt64(1)}}}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`jitlsimp0 "example.com/m/q"`,
		`case "F":` + "\n\t\t\treturn &jitlspreview.Case{Fn: jitlsjit.Jit(F, jitlsjit.StaticArgnums(0)), " +
			"Specs: []any{int(3), jitlsimp0.Layer{W: jitlsjit.Zeros(jitlsjit.Float32, 2, 2), B: jitlsjit.Zeros(jitlsjit.Float32, 2)}, jitlsjit.Spec(jitlsjit.Float32, 4)}, ",
		"return []any{jitlsimp0.Layer{W: jitlsjit.Zeros(jitlsjit.Float32, 2, 2), B: jitlsjit.Zeros(jitlsjit.Float32, 2)}, jitlsjit.Zeros(jitlsjit.Float32, 4)}\n",
		`jitlsjit.Jit(jitlsjit.Vmap(F, jitlsjit.InAxes(1)), jitlsjit.StaticArgnums(0))`,
		"func TestJitlsPreview(t *jitlstesting.T) {\n\tjitlspreview.Run(t, func(name string) *jitlspreview.Case {",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the harness lacks\n%s\nin\n%s", want, src)
		}
	}
}
