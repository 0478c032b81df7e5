package suppress

import (
	"go/parser"
	"go/token"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	src := `package p

//jitlint:file-ignore staticargs,shapechurn sweeps on purpose

func f() {
	x := 1 //jitlint:ignore tracedbool trailing
	//jitlint:ignore traceeffect alone // a remark
	_ = x
	if x > 0 { //jitlint:ignore unrolledloop
	}
	//jitlint:nosuch x y
	/* //jitlint:ignore tracedbool in a block comment: not a directive */
	//jitlint:ignorefoo x y
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	got := Parse(fset, f)
	want := []Directive{
		{FileWide: true, Analyzers: []string{"staticargs", "shapechurn"}, Reason: "sweeps on purpose"},
		{Line: 6, Analyzers: []string{"tracedbool"}, Reason: "trailing"},
		{Line: 8, Analyzers: []string{"traceeffect"}, Reason: "alone"},
		{Line: 9, Analyzers: []string{"unrolledloop"}},
		{Malformed: "unknown directive //jitlint:nosuch: the directives are //jitlint:ignore and //jitlint:file-ignore"},
		{Malformed: "unknown directive //jitlint:ignorefoo: the directives are //jitlint:ignore and //jitlint:file-ignore"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d directives, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.FileWide != w.FileWide || g.Line != w.Line || !slices.Equal(g.Analyzers, w.Analyzers) || g.Reason != w.Reason || g.Malformed != w.Malformed {
			t.Errorf("directive %d = %+v, want %+v", i, *g, w)
		}
	}
	pos := func(line int) token.Position { return token.Position{Filename: "p.go", Line: line} }
	if !got[0].Matches("shapechurn", pos(40)) || got[0].Matches("tracedbool", pos(40)) {
		t.Error("file-ignore must match its analyzers anywhere in the file, and only them")
	}
	if !got[1].Matches("tracedbool", pos(6)) || got[1].Matches("tracedbool", pos(7)) || got[1].Matches("tracedbool", token.Position{Filename: "q.go", Line: 6}) {
		t.Error("a trailing ignore must match its own line of its own file only")
	}
}
