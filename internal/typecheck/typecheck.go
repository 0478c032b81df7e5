// Package typecheck is the one parse and type-check path of jitlint's
// drivers. The go vet driver (cmd/jitlint) and the language server (lsp)
// both parse one package's files and type-check them against the types of
// its dependencies, with the types.Info that the analyzers read; they differ
// only in where those dependency types come from (compiler export data named
// by go vet's config, or packages loaded by go/packages) and in whether a
// type error stops the check.
package typecheck

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
)

// ParseFile parses one Go file with comments (the analyzers read
// directives and fix positions from them); src nil reads the file.
// Identifiers are resolved by go/types, not by the parser.
func ParseFile(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
	var s any
	if src != nil {
		s = src
	}
	return parser.ParseFile(fset, name, s, parser.ParseComments|parser.SkipObjectResolution)
}

// Config says how to type-check one package.
type Config struct {
	// Path is the package's import path.
	Path string
	// Sizes are the target's type sizes.
	Sizes types.Sizes
	// GoVersion is the language version ("go1.26"); "" means the newest.
	GoVersion string
	// Import returns the package that an import path, as written in the
	// source, resolves to. "unsafe" never reaches it.
	Import func(path string) (*types.Package, error)
	// Error, when set, receives every type error and the check goes on;
	// when nil, the first error ends the check.
	Error func(error)
}

// Check type-checks files as the package c.Path and returns it with the
// type information the analyzers need (every map of types.Info that
// go/analysis passes fill).
func (c *Config) Check(fset *token.FileSet, files []*ast.File) (*types.Package, *types.Info, error) {
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	tc := &types.Config{
		Importer:  importerFunc(c.importPath),
		Sizes:     c.Sizes,
		GoVersion: c.GoVersion,
		Error:     c.Error,
	}
	pkg, err := tc.Check(c.Path, fset, files, info)
	return pkg, info, err
}

func (c *Config) importPath(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	return c.Import(path)
}

// ExportData returns a Config.Import that reads the gc compiler's export
// data: importMap maps an import path as written to a package path, and
// packageFile a package path to its export data file (the ImportMap and
// PackageFile of a go vet config). Packages are read once and shared.
func ExportData(fset *token.FileSet, importMap, packageFile map[string]string) func(path string) (*types.Package, error) {
	gc := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := packageFile[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(file)
	})
	return func(path string) (*types.Package, error) {
		resolved, ok := importMap[path]
		if !ok {
			return nil, fmt.Errorf("can't resolve import %q", path)
		}
		return gc.Import(resolved)
	}
}

// importerFunc adapts a function to types.Importer.
type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
