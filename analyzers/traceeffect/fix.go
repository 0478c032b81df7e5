package traceeffect

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers/internal/astq"
	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/jitapi"
)

// debugPrintFix rewrites fmt.Printf(format, args...) to jit.DebugPrint when
// an argument is traced. When that call is the file's only use of fmt, the
// fix also deletes the import, so that the edited file still compiles.
func debugPrintFix(r *traced.Result, call *ast.CallExpr) (analysis.SuggestedFix, bool) {
	if len(call.Args) < 2 || call.Ellipsis.IsValid() || !r.AnyTraced(call.Args[1:]) {
		return analysis.SuggestedFix{}, false
	}
	file := r.File(call.Pos())
	jit := astq.JitImportName(file, jitapi.JitPath)
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if jit == "" || !ok {
		return analysis.SuggestedFix{}, false
	}
	edits := []analysis.TextEdit{{Pos: sel.Pos(), End: sel.End(), NewText: []byte(jit + ".DebugPrint")}}
	if del, ok := deleteImportIfLastUse(r, file, sel); ok {
		edits = append(edits, del)
	}
	return analysis.SuggestedFix{Message: "Print at run time with " + jit + ".DebugPrint", TextEdits: edits}, true
}

// deleteImportIfLastUse returns an edit that deletes the import of sel's
// package when sel is its only use in file.
func deleteImportIfLastUse(r *traced.Result, file *ast.File, sel *ast.SelectorExpr) (analysis.TextEdit, bool) {
	pkgID, ok := sel.X.(*ast.Ident)
	if !ok {
		return analysis.TextEdit{}, false
	}
	pkgName, ok := r.Info.Uses[pkgID].(*types.PkgName)
	if !ok {
		return analysis.TextEdit{}, false
	}
	uses := 0
	ast.Inspect(file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && r.Info.Uses[id] == pkgName {
			uses++
		}
		return true
	})
	if uses != 1 {
		return analysis.TextEdit{}, false
	}
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			continue
		}
		for _, spec := range gen.Specs {
			is, ok := spec.(*ast.ImportSpec)
			if !ok {
				continue
			}
			if path, err := strconv.Unquote(is.Path.Value); err != nil || path != pkgName.Imported().Path() {
				continue
			}
			start, end := is.Pos(), is.End()
			if len(gen.Specs) == 1 {
				start, end = gen.Pos(), gen.End()
			}
			// Delete whole lines (gofmt puts each import spec on its own line).
			tf := r.Fset.File(start)
			start = tf.LineStart(tf.Line(start))
			if line := tf.Line(end); line < tf.LineCount() {
				end = tf.LineStart(line + 1)
			}
			return analysis.TextEdit{Pos: start, End: end}, true
		}
	}
	return analysis.TextEdit{}, false
}
