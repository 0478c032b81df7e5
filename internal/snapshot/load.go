package snapshot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/factpass"
	"github.com/jitlint/jitlint/internal/typecheck"
)

// How the server analyses a package (see bench/RESULTS.md for the numbers
// behind this choice): the dependencies of the package and of its tests
// are loaded once with go/packages from export data (no overlay, so the
// build cache is used) and kept as a "dependency universe", with the
// analysis facts of those that import jit (facts.go); on each edit only
// the edited package (with its in-package tests) and its external test
// package are parsed (unsaved buffers from memory) and type-checked
// against those dependency types, and the analyzers run on them in process
// (internal/factpass, the driver go vet -vettool=jitlint uses too). The
// universe is rebuilt when the package's imports change or a file is
// saved elsewhere.

// Universe is the loaded dependency types of one package directory.
type Universe struct {
	dir     string
	pkgPath string
	name    string
	module  *packages.Module
	sizes   types.Sizes
	goFiles []string                     // compiled Go files of the package and its in-package tests, as go list saw them
	xtest   []string                     // files of the external test package (package <name>_test)
	imports map[string]*packages.Package // import path as written → loaded dependency (of the package, its tests and its external tests)
	local   []string                     // files of dependencies inside the main module, for fingerprints
	extra   []string                     // import paths loaded for unsaved buffers

	facts    factpass.Facts       // the dependencies' facts (see factCache.depFacts)
	factsFor []*analysis.Analyzer // the analyzers facts was computed for
}

// loadUniverse runs go/packages for the package in dir and its tests,
// plus extra import paths (imports that only unsaved buffers have: go
// list reads the disk), with the go command's environment env (nil: the
// server's).
func loadUniverse(ctx context.Context, dir string, extra, env []string) (*Universe, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Context: ctx,
		Dir:     dir,
		Env:     env,
		Tests:   true,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedDeps | packages.NeedExportFile | packages.NeedTypes | packages.NeedTypesSizes | packages.NeedModule,
	}
	pkgs, err := packages.Load(cfg, append([]string{"."}, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("loading the package in %s: %v", dir, err)
	}
	// The package in dir comes as itself, as its test variant "p [p.test]"
	// (with the in-package _test.go files) and as the external test
	// package "p_test [p.test]"; the test variant is analysed when there
	// is one, so that test files get diagnostics too.
	var p, plain, variant, xtest *packages.Package
	byPath := map[string]*packages.Package{}
	for _, q := range pkgs {
		if q.ID == q.PkgPath {
			byPath[q.PkgPath] = q
		}
		if !slices.ContainsFunc(q.GoFiles, func(f string) bool { return filepath.Dir(f) == dir }) {
			continue
		}
		switch {
		case strings.HasSuffix(q.Name, "_test") && strings.HasSuffix(q.PkgPath, "_test"):
			xtest = q
		case q.ID != q.PkgPath:
			variant = q
		default:
			plain = q
		}
	}
	p = cmp.Or(variant, plain)
	if p == nil && len(pkgs) > 0 && len(extra) == 0 {
		p = pkgs[0]
	}
	if p == nil || p.Name == "" {
		msg := "no Go package"
		if p != nil && len(p.Errors) > 0 {
			msg = p.Errors[0].Msg
		}
		return nil, fmt.Errorf("loading the package in %s: %s", dir, msg)
	}
	imports := maps.Clone(p.Imports)
	var xtestFiles []string
	if xtest != nil {
		xtestFiles = xtest.CompiledGoFiles
		for path, q := range xtest.Imports {
			if q.PkgPath != p.PkgPath { // the package under test is analysed from source
				imports[path] = q
			}
		}
	}
	for _, path := range extra {
		if q := byPath[path]; q != nil && q.Types != nil && q.PkgPath != p.PkgPath {
			imports[path] = q
		}
	}
	u := &Universe{dir: dir, pkgPath: p.PkgPath, name: p.Name, module: p.Module, sizes: p.TypesSizes,
		goFiles: p.CompiledGoFiles, xtest: xtestFiles, imports: imports, extra: extra}
	if u.sizes == nil {
		u.sizes = types.SizesFor("gc", "amd64")
	}
	var modDir string
	if p.Module != nil {
		modDir = p.Module.Dir
	}
	packages.Visit(pkgs, nil, func(dep *packages.Package) {
		if dep.PkgPath == p.PkgPath || dep == xtest || modDir == "" {
			return
		}
		for _, f := range dep.GoFiles {
			if strings.HasPrefix(f, modDir+string(filepath.Separator)) {
				u.local = append(u.local, f)
			}
		}
	})
	slices.Sort(u.local)
	return u, nil
}

// checkDir says what is wrong with the directory of a package, in the
// user's terms (the go command would report a failed fork/exec of itself).
func checkDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the directory %s does not exist (was it moved or deleted?); jitls analyses a file's package in its directory on disk, so save the file in an existing directory", dir)
	case err != nil:
		return fmt.Errorf("cannot read the directory %s: %v", dir, err)
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// Parsed is one type-checked state of a package (with its
// in-package tests) and of its external test package, plus the file
// contents they were computed from.
type Parsed struct {
	Pkg      *packages.Package
	XTest    *packages.Package // package <name>_test, or nil
	Contents map[string][]byte // absolute path → content analysed
	Versions map[string]int32  // absolute path → document version (open files only)
	newDeps  bool              // an import is missing from the universe: reload it
	imports  []string          // all import paths of the parsed files
}

// parsePackage parses and type-checks the package of u with docs (open
// buffers) replacing disk content. If a file imports a package the
// universe lacks, it stops early with newDeps set when stopOnNewDeps, and
// otherwise type-checks anyway (the import becomes a type error).
func parsePackage(u *Universe, docs map[string]File, stopOnNewDeps bool) (*Parsed, error) {
	files := slices.Concat(u.goFiles, u.xtest)
	for path := range docs {
		if !slices.Contains(files, path) && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
	}
	slices.Sort(files)
	pp := &Parsed{Contents: map[string][]byte{}, Versions: map[string]int32{}}
	fset := token.NewFileSet()
	var syntax, xsyntax []*ast.File
	var illFormed bool
	for _, path := range files {
		var src []byte
		if d, ok := docs[path]; ok {
			src = d.Content
			pp.Versions[path] = d.Version
		} else {
			b, err := os.ReadFile(path)
			if err != nil {
				continue // deleted since the universe was loaded
			}
			src = b
		}
		f, err := typecheck.ParseFile(fset, path, src)
		if f == nil {
			return nil, fmt.Errorf("parsing %s: %v", path, err)
		}
		illFormed = illFormed || err != nil
		switch f.Name.Name {
		case u.name:
			syntax = append(syntax, f)
		case u.name + "_test":
			xsyntax = append(xsyntax, f)
		default:
			continue // a new buffer that belongs to another package
		}
		pp.Contents[path] = src
		for _, imp := range f.Imports {
			ip := strings.Trim(imp.Path.Value, "\"`")
			if ip == "C" {
				return nil, fmt.Errorf("%s uses cgo, which jitls does not analyse", path)
			}
			if _, ok := u.imports[ip]; !ok && ip != "unsafe" && ip != u.pkgPath {
				pp.newDeps = true
			}
			if !slices.Contains(pp.imports, ip) {
				pp.imports = append(pp.imports, ip)
			}
		}
	}
	if pp.newDeps && stopOnNewDeps {
		return pp, nil
	}
	deps := func(path string) (*types.Package, error) {
		if p := u.imports[path]; p != nil && p.Types != nil {
			return p.Types, nil
		}
		return nil, fmt.Errorf("jitls: no type information for %q (is it a dependency of the module?)", path)
	}
	pp.Pkg = checkPackage(u.module, u.sizes, fset, u.pkgPath, u.name, syntax, deps, illFormed)
	if len(xsyntax) > 0 {
		// The external tests import the package under test as just checked.
		pp.XTest = checkPackage(u.module, u.sizes, fset, u.pkgPath+"_test", u.name+"_test", xsyntax, func(path string) (*types.Package, error) {
			if path == u.pkgPath {
				return pp.Pkg.Types, nil
			}
			return deps(path)
		}, illFormed)
	}
	return pp, nil
}

// checkPackage type-checks one package's syntax (of a package of module,
// for sizes) against the dependency types that importPath returns.
func checkPackage(module *packages.Module, sizes types.Sizes, fset *token.FileSet, pkgPath, name string, syntax []*ast.File,
	importPath func(string) (*types.Package, error), illFormed bool) *packages.Package {
	var typeErrs []types.Error
	tc := &typecheck.Config{
		Path:   pkgPath,
		Sizes:  sizes,
		Import: importPath,
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				typeErrs = append(typeErrs, te)
			}
		},
	}
	if module != nil && module.GoVersion != "" {
		tc.GoVersion = "go" + module.GoVersion
	}
	tpkg, info, _ := tc.Check(fset, syntax)
	files := make([]string, len(syntax))
	for i, f := range syntax {
		files[i] = fset.File(f.FileStart).Name()
	}
	return &packages.Package{
		ID: pkgPath, Name: name, PkgPath: pkgPath, Fset: fset, Syntax: syntax, Types: tpkg,
		TypesInfo: info, TypesSizes: sizes, Module: module, TypeErrors: typeErrs,
		GoFiles: files, CompiledGoFiles: files, Imports: map[string]*packages.Package{},
		IllTyped: len(typeErrs) > 0 || illFormed,
	}
}

// analysisRun is the outcome of the analyzers on one package.
type analysisRun struct {
	diags    []Finding
	traced   *traced.Result    // the traced analyzer's result (nil: the package does not import jit)
	exported []factpass.Record // the facts the package exported, for its importers
}

// runAnalyzers runs analyzers on pkg with the facts of its dependencies
// (deps) and returns their diagnostics, the traced analyzer's result
// (computed here when the analyzers do not include it) and the package's
// facts. On an ill-typed package, analyzers without RunDespiteErrors are
// skipped. A panic in an analyzer becomes an error.
func runAnalyzers(analyzers []*analysis.Analyzer, pkg *packages.Package, deps factpass.Facts) (run analysisRun, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("an analyzer panicked on %s: %v\n%s", pkg.PkgPath, r, debug.Stack())
		}
	}()
	var roots []*analysis.Analyzer
	for _, a := range analyzers {
		if !pkg.IllTyped || a.RunDespiteErrors {
			roots = append(roots, a)
		}
	}
	found := false
	if len(roots) > 0 {
		unit := &factpass.Unit{Fset: pkg.Fset, Pkg: pkg.Types, Files: pkg.Syntax, Info: pkg.TypesInfo,
			Sizes: pkg.TypesSizes, Module: factpass.Module(pkg.Module), Deps: deps}
		results := unit.Run(roots)
		var errs []string
		for i, r := range results {
			if r.Analyzer.ResultType == tracedResultType && r.Err == nil {
				run.traced, found = r.Value.(*traced.Result), true
			}
			if i >= len(roots) { // a prerequisite
				continue
			}
			if r.Err != nil {
				errs = append(errs, fmt.Sprintf("%s: %v", r.Analyzer.Name, r.Err))
				continue
			}
			for _, d := range r.Diagnostics {
				run.diags = append(run.diags, Finding{Analyzer: r.Analyzer, Diagnostic: d})
			}
		}
		run.exported = unit.Exported
		if len(errs) > 0 {
			err = fmt.Errorf("analysis of %s: %s", pkg.PkgPath, strings.Join(errs, "; "))
		}
	}
	if !found && pkg.Types != nil {
		run.traced = traced.Build(pkg.Fset, pkg.Syntax, pkg.Types, pkg.TypesInfo, pkg.TypeErrors...)
	}
	return run, err
}

// tracedResultType is the result type of the traced analyzer.
var tracedResultType = reflect.TypeOf((*traced.Result)(nil))

// Finding is a diagnostic with the analyzer that reported it.
type Finding struct {
	analysis.Diagnostic
	Analyzer *analysis.Analyzer
}
