package factpass

import (
	"go/token"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestValidateFixes(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("a.go", -1, 100)
	p := func(off int) token.Pos { return f.Pos(off) }
	a := &analysis.Analyzer{Name: "x"}
	edits := []analysis.TextEdit{{Pos: p(20), End: p(25)}, {Pos: p(5)}, {Pos: p(5), End: p(8)}}
	if err := validateFixes(fset, a, []analysis.SuggestedFix{{Message: "m", TextEdits: edits}}); err != nil {
		t.Fatal(err)
	}
	want := []analysis.TextEdit{{Pos: p(5), End: p(5)}, {Pos: p(5), End: p(8)}, {Pos: p(20), End: p(25)}}
	if !slices.EqualFunc(edits, want, func(x, y analysis.TextEdit) bool { return x.Pos == y.Pos && x.End == y.End }) {
		t.Errorf("edits not sorted and completed: %v", edits)
	}
	for _, bad := range [][]analysis.SuggestedFix{
		{{Message: "m", TextEdits: []analysis.TextEdit{{Pos: p(5), End: p(9)}, {Pos: p(8), End: p(12)}}}},
		{{Message: "m", TextEdits: []analysis.TextEdit{{Pos: p(9), End: p(5)}}}},
		{{Message: "m", TextEdits: []analysis.TextEdit{{Pos: p(9), End: p(99) + 50}}}},
		{{Message: "m"}, {Message: "m"}},
	} {
		if err := validateFixes(fset, a, bad); err == nil {
			t.Errorf("validateFixes(%v) accepted an invalid fix", bad)
		}
	}
}
