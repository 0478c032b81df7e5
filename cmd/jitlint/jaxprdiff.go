package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/packages"

	"github.com/jitlint/jitlint/internal/previewer"
)

const jaxprDiffUsage = `usage: jitlint jaxpr-diff [-json] [PKG.]FUNC SIGNATURE_A SIGNATURE_B

Traces the top-level function FUNC of package PKG (a directory such as
./examples/codelab or an import path; the current directory when omitted)
with jit.Jit under two input signatures in //jit:args syntax and prints a
one-line summary of what differs (avals, equation counts, primitives) and a
unified diff of the two jaxprs. Parameters of basic types (int, float64,
bool, string) are static arguments, given as Go values. It builds and runs the
package's code, as a jitls preview does.

  jitlint jaxpr-diff ./examples/codelab.Model 'f32[4]' 'f32[8]'
  jitlint jaxpr-diff ./examples/codelab.Power '2, f32[4]' '3, f32[4]'
`

// isJaxprDiff reports whether the command line asks for a jaxpr diff.
func isJaxprDiff(args []string) bool {
	return len(args) > 0 && (args[0] == "jaxpr-diff" || args[0] == "-jaxpr-diff" || args[0] == "--jaxpr-diff")
}

// runJaxprDiff runs the jaxpr-diff subcommand and returns the exit code:
// 0 on success (whether or not the jaxprs differ), 2 on a usage or tracing
// error.
func runJaxprDiff(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("jaxpr-diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	fs.Usage = func() { fmt.Fprint(stderr, jaxprDiffUsage) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 3 {
		fs.Usage()
		return 2
	}
	dir, fn, err := resolveFunc(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "jitlint jaxpr-diff: %v\n", err)
		return 2
	}
	d, err := diffJaxpr(context.Background(), dir, fn, [2]string{fs.Arg(1), fs.Arg(2)})
	if err != nil {
		fmt.Fprintf(stderr, "jitlint jaxpr-diff: %v\n", err)
		return 2
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(d)
		return 0
	}
	fmt.Fprintf(stdout, "%s: %s\n", d.Function, d.Summary)
	if d.Diff != "" {
		fmt.Fprintf(stdout, "\n%s", d.Diff)
	}
	return 0
}

// resolveFunc splits "[PKG.]FUNC" and finds PKG's directory with go list.
func resolveFunc(arg string) (dir, fn string, err error) {
	i := strings.LastIndex(arg, ".")
	if i < 0 {
		dir, err = os.Getwd()
		return dir, arg, err
	}
	pkg, fn := arg[:i], arg[i+1:]
	if fn == "" || pkg == "" {
		return "", "", fmt.Errorf("%q: want FUNC or PKG.FUNC, e.g. ./examples/codelab.Model", arg)
	}
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).CombinedOutput()
	if err != nil {
		return "", "", fmt.Errorf("finding package %s: %s", pkg, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), fn, nil
}

// diffJaxpr loads the package in dir and diffs the jaxprs of its function
// fn under the two signatures, with the preview builder of jitls.
func diffJaxpr(ctx context.Context, dir, fn string, specs [2]string) (*previewer.JaxprDiff, error) {
	cfg := &packages.Config{Context: ctx, Dir: dir,
		Mode: packages.NeedName | packages.NeedImports | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, fmt.Errorf("loading the package in %s: %v", dir, err)
	}
	if len(pkgs) != 1 || pkgs[0].Types == nil {
		return nil, fmt.Errorf("%s holds no Go package", dir)
	}
	pkg := pkgs[0]
	if len(pkg.Errors) > 0 {
		return nil, fmt.Errorf("%s does not type-check: %v", dir, pkg.Errors[0])
	}
	f, ok := pkg.Types.Scope().Lookup(fn).(*types.Func)
	if !ok || f.Signature().TypeParams() != nil {
		return nil, fmt.Errorf("%s is not a top-level function of %s, without type parameters; its functions of jit.Array: %s",
			fn, pkg.PkgPath, strings.Join(arrayFuncs(pkg.Types), ", "))
	}
	e := previewer.New(previewer.Config{})
	defer e.Close()
	src := &previewer.Source{Dir: dir, Name: pkg.Name, Types: pkg.Types}
	t := previewer.Target{Key: fn, Func: fn, Sig: f.Signature(), Static: basicParams(f.Signature())}
	return e.Diff(ctx, src, t, specs, func(string) {})
}

// basicParams returns the indices of sig's parameters of basic types: the
// Go values a traced function takes, static for jit.Jit.
func basicParams(sig *types.Signature) []int {
	var out []int
	for i := range sig.Params().Len() {
		if _, ok := sig.Params().At(i).Type().Underlying().(*types.Basic); ok {
			out = append(out, i)
		}
	}
	return out
}

// arrayFuncs returns the names of pkg's top-level functions that take a
// jit.Array.
func arrayFuncs(pkg *types.Package) []string {
	var out []string
	for _, name := range pkg.Scope().Names() {
		f, ok := pkg.Scope().Lookup(name).(*types.Func)
		if !ok {
			continue
		}
		for i := range f.Signature().Params().Len() {
			if jitapi.IsArray(f.Signature().Params().At(i).Type()) {
				out = append(out, name)
				break
			}
		}
	}
	return out
}
