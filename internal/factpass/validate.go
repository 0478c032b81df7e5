package factpass

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// validateFixes checks a diagnostic's suggested fixes the way unitchecker
// does before it reports them: each fix's edits are sorted by position
// (stably, so that insertions at one point keep their order), an edit
// without an end gets its start as end, and a fix whose edits overlap, run
// backwards, leave their file or repeat another fix's message is an error
// (an analyzer bug; the caller drops the diagnostic's fixes).
func validateFixes(fset *token.FileSet, a *analysis.Analyzer, fixes []analysis.SuggestedFix) error {
	seen := map[string]bool{}
	for i := range fixes {
		fix := &fixes[i]
		if seen[fix.Message] {
			return fmt.Errorf("analyzer %q suggests two fixes with the same message (%s)", a.Name, fix.Message)
		}
		seen[fix.Message] = true
		if err := validateEdits(fset, fix.TextEdits); err != nil {
			return fmt.Errorf("analyzer %q suggests an invalid fix (%s): %v", a.Name, fix.Message, err)
		}
	}
	return nil
}

// validateEdits sorts and checks the edits of one fix.
func validateEdits(fset *token.FileSet, edits []analysis.TextEdit) error {
	slices.SortStableFunc(edits, func(x, y analysis.TextEdit) int {
		return cmp.Or(cmp.Compare(x.Pos, y.Pos), cmp.Compare(x.End, y.End))
	})
	for i := range edits {
		e := &edits[i]
		file := fset.File(e.Pos)
		if file == nil {
			return fmt.Errorf("edit %d starts at no file (position %d)", i, e.Pos)
		}
		eof := token.Pos(file.Base() + file.Size())
		switch {
		case !e.End.IsValid():
			e.End = e.Pos
		case e.End < e.Pos:
			return fmt.Errorf("edit %d ends (%v) before it starts (%v)", i, fset.Position(e.End), fset.Position(e.Pos))
		case e.End > eof && e.End < eof+10:
			// An end computed a little past the end of the file (as
			// ast.StructType's can be) is cut back to it.
			e.End = eof
		case e.End > eof:
			return fmt.Errorf("edit %d runs past the end of %s", i, file.Name())
		}
		if i > 0 && e.Pos < edits[i-1].End {
			return fmt.Errorf("edits %d and %d overlap in %s (%v and %v)", i-1, i, file.Name(), fset.Position(edits[i-1].Pos), fset.Position(e.Pos))
		}
	}
	return nil
}
