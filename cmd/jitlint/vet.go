package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/factpass"
	"github.com/jitlint/jitlint/internal/jitapi"
	"github.com/jitlint/jitlint/internal/typecheck"
)

// The go vet protocol. go vet runs the tool once per package, its
// dependencies included, with the package described by a *.cfg file. The
// x/tools unitchecker type-checks every one of them from source, because its
// .vetx files carry types for the packages that import them; for jitlint,
// whose analyzers have nothing to do in packages that do not import jit,
// that type-checking was nearly all of the cost. This driver instead
// type-checks only the packages that import jit, from the compiler's export
// data of their imports (PackageFile in the config), and skips the others
// without reading them. Its .vetx files hold only facts (see vetfacts.go).
// -V=full and -flags are answered by multichecker as before.

// vetInvocation reports whether args are a go vet tool invocation:
// flags followed by one *.cfg file.
func vetInvocation(args []string) bool {
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// vetUnsupported says why go vet cannot do what opts ask, or "". (go vet
// itself adds -json, and prints text from the JSON unless its user gave
// -json: -format=text and -format=json change nothing.)
func vetUnsupported(opts *options) string {
	switch {
	case opts.format == formatSARIF || opts.format == formatGitHub:
		return fmt.Sprintf("-format=%s is not available under go vet: go vet runs the tool once per package and parses or concatenates "+
			"each one's JSON, so no one SARIF log or list of annotations comes out; run jitlint -format=%s ./... instead", opts.format, opts.format)
	case len(opts.events) > 0 || opts.baseline != "":
		return "-events and -baseline are not available under go vet, which runs the tool once per package, in the package's directory; " +
			"run jitlint -events FILE -baseline FILE ./... instead"
	case opts.fix && opts.diff:
		return "go vet -fix -diff is not supported by the vet tool; run jitlint -fix -diff ./... instead"
	}
	return ""
}

// runVet handles one go vet invocation and returns the exit status.
func runVet(all []*analysis.Analyzer, args []string) int {
	cfgFile := args[len(args)-1]
	opts, run, _, _, err := parseFlags(all, reports, args[:len(args)-1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: %v (in the flags go vet passed: %q)\n", err, args[:len(args)-1])
		return 1
	}
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: reading the go vet config: %v\n", err)
		return 1
	}
	var cfg unitchecker.Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: decoding the go vet config %s: %v\n", cfgFile, err)
		return 1
	}
	// Said once per package that go vet reports on, not for each dependency.
	if why := vetUnsupported(opts); why != "" && !cfg.VetxOnly {
		fmt.Fprintf(os.Stderr, "jitlint: %s\n", why)
		return 1
	}
	out := io.Writer(os.Stdout)
	if cfg.Stdout != "" {
		f, err := os.Create(cfg.Stdout)
		if err != nil {
			fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
			return 1
		}
		defer f.Close()
		out = f
	}
	facts, err := readVetx(cfg.PackageVetx)
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: %s: %v\n", cfg.ImportPath, err)
		return 1
	}
	fset := token.NewFileSet()
	files, err := parseFiles(fset, &cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	module := vetModule(&cfg)
	if !traced.NeedsFacts(importsJit(&cfg), module, files) {
		// Nothing to analyse; pass the dependencies' facts on.
		return writeOrFail(cfg.VetxOutput, facts, nil)
	}
	pkg, info, err := typeCheck(fset, &cfg, files)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if cfg.VetxOnly {
		run = factpass.Producers(run)
	}
	unit := &factpass.Unit{Fset: fset, Pkg: pkg, Files: files, Info: info, Sizes: sizes, Module: module,
		OtherFiles: cfg.NonGoFiles, IgnoredFiles: cfg.IgnoredFiles, Deps: facts}
	results := unit.Run(run)[:len(run)]
	if code := writeOrFail(cfg.VetxOutput, facts, unit.Exported); code != 0 || cfg.VetxOnly {
		return code
	}
	if opts.fix {
		return writeFixArchive(fset, cfg.FixArchive, results)
	}
	return report(out, fset, files, cfg.ID, results, opts.json)
}

// importsJit reports whether the package imports the jit package directly.
func importsJit(cfg *unitchecker.Config) bool {
	for _, path := range cfg.ImportMap {
		if jitapi.IsJitPath(path) {
			return true
		}
	}
	return false
}

// sizes are the gc compiler's type sizes for the target architecture.
var sizes = types.SizesFor("gc", build.Default.GOARCH)

// typeCheck type-checks the package's files against the compiler's export
// data of its imports.
func typeCheck(fset *token.FileSet, cfg *unitchecker.Config, files []*ast.File) (*types.Package, *types.Info, error) {
	tc := &typecheck.Config{
		Path:      cfg.ImportPath,
		Sizes:     sizes,
		GoVersion: cfg.GoVersion,
		Import:    typecheck.ExportData(fset, cfg.ImportMap, cfg.PackageFile),
	}
	return tc.Check(fset, files)
}

// parseFiles parses the package's Go files.
func parseFiles(fset *token.FileSet, cfg *unitchecker.Config) ([]*ast.File, error) {
	var files []*ast.File
	for _, name := range cfg.GoFiles {
		f, err := typecheck.ParseFile(fset, name, nil)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// vetModule is the package's module as unitchecker gives it to analyzers:
// cmd/go before Go 1.27 sets only ModulePath and ModuleVersion.
func vetModule(cfg *unitchecker.Config) *analysis.Module {
	if cfg.Module == nil && cfg.ModulePath != "" {
		return &analysis.Module{Path: cfg.ModulePath, Version: cfg.ModuleVersion, GoVersion: cfg.GoVersion}
	}
	return cfg.Module
}
