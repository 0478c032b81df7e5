package main

import (
	"go/token"
	"slices"
	"testing"

	"github.com/jitlint/jitlint/analyzers"
	"golang.org/x/tools/go/analysis"
)

func TestParseVetFlags(t *testing.T) {
	n := len(analyzers.Names)
	for _, tc := range []struct {
		args []string
		want int // analyzers that run
	}{
		{[]string{"-json"}, n},
		{[]string{"-json", "-staticargs=false"}, n - 1},
		{[]string{"-tracedbool", "-traceeffect=true"}, 2},
		{[]string{"-unrolledloop.max=64", "-c=2"}, n},
		{[]string{"-directive=false"}, n - 1},
	} {
		all := analyzers.All()
		_, run, err := parseVetFlags(all, tc.args)
		if err != nil || len(run) != tc.want {
			t.Errorf("parseVetFlags(%q): %d analyzers, %v; want %d", tc.args, len(run), err, tc.want)
		}
		if tc.args[0] == "-unrolledloop.max=64" && all[1].Flags.Lookup("max").Value.String() != "64" {
			t.Errorf("-unrolledloop.max=64 did not set the analyzer's flag")
		}
	}
	if _, _, err := parseVetFlags(analyzers.All(), []string{"-nosuch"}); err == nil {
		t.Error("unknown flag accepted")
	}
}

func TestApplyEdits(t *testing.T) {
	src := []byte("abcdef")
	got := apply(src, []edit{{4, 5, "E"}, {0, 1, "A"}, {0, 1, "A"}, {2, 2, "+"}})
	if string(got) != "Ab+cdEf" {
		t.Errorf("apply = %q", got)
	}
	taken := map[string][]edit{"f": {{0, 3, "x"}}}
	if !conflicts(taken, map[string][]edit{"f": {{2, 4, "y"}}}) || conflicts(taken, map[string][]edit{"f": {{0, 3, "x"}}}) {
		t.Error("conflicts: overlapping edits must conflict, identical ones must not")
	}
}

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
