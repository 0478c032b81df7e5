package traced

import (
	"go/ast"
	"go/token"
	"go/types"
)

// An editor's package has type errors most of the time while the user
// types. SSA cannot be built from ill-typed code, so the declarations that
// hold a type error are left out: the functions they declare have no body
// (as another package's do), and the rest of the package is analysed as
// usual.

// wellTyped returns files whose function declarations that contain one of
// errs have no body (the files themselves when there are none).
func wellTyped(fset *token.FileSet, files []*ast.File, errs []types.Error) []*ast.File {
	if len(errs) == 0 {
		return files
	}
	bad := func(d ast.Decl) bool {
		for _, e := range errs {
			if e.Fset != nil && e.Fset != fset {
				continue
			}
			if e.Pos >= d.Pos() && e.Pos < d.End() {
				return true
			}
		}
		return false
	}
	out := make([]*ast.File, len(files))
	for i, f := range files {
		decls := make([]ast.Decl, len(f.Decls))
		changed := false
		for k, d := range f.Decls {
			decls[k] = d
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && bad(fd) {
				cp := *fd
				cp.Body = nil // declared, not defined: like a function in assembly
				decls[k], changed = &cp, true
			}
		}
		if !changed {
			out[i] = f
			continue
		}
		cp := *f
		cp.Decls = decls
		out[i] = &cp
	}
	return out
}
