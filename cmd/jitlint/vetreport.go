package main

import (
	"archive/zip"
	"cmp"
	"encoding/json"
	"fmt"
	"go/format"
	"go/token"
	"io"
	"os"
	"sort"

	"github.com/jitlint/jitlint/internal/factpass"
	"golang.org/x/tools/go/analysis"
)

// The JSON that go vet reads from the tool's stdout:
// {package ID: {analyzer: [diagnostics] or {"error": "..."}}}
// (the same schema as x/tools' unitchecker).
type (
	jsonDiagnostic struct {
		Category       string            `json:"category,omitempty"`
		Posn           string            `json:"posn"`
		End            string            `json:"end"`
		Message        string            `json:"message"`
		SuggestedFixes []jsonFix         `json:"suggested_fixes,omitempty"`
		Related        []jsonRelatedInfo `json:"related,omitempty"`
	}
	jsonFix struct {
		Message string     `json:"message"`
		Edits   []jsonEdit `json:"edits"`
	}
	jsonEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonRelatedInfo struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
	jsonError struct {
		Err string `json:"error"`
	}
)

// report prints the results: JSON for go vet, or file:line:col: message
// lines on stderr. It returns the exit status.
func report(out io.Writer, fset *token.FileSet, id string, results []*factpass.Result, asJSON bool) int {
	if !asJSON {
		code := 0
		for _, r := range results {
			if r.Err != nil {
				fmt.Fprintf(os.Stderr, "jitlint: %s: %v\n", r.Analyzer.Name, r.Err)
				code = 1
			}
			for _, d := range r.Diagnostics {
				fmt.Fprintf(os.Stderr, "%s: %s\n", fset.Position(d.Pos), d.Message)
				code = 1
			}
		}
		return code
	}
	byAnalyzer := map[string]any{}
	for _, r := range results {
		if r.Err != nil {
			byAnalyzer[r.Analyzer.Name] = jsonError{r.Err.Error()}
			continue
		}
		if len(r.Diagnostics) == 0 {
			continue
		}
		var diags []jsonDiagnostic
		for _, d := range r.Diagnostics {
			diags = append(diags, toJSON(fset, d))
		}
		byAnalyzer[r.Analyzer.Name] = diags
	}
	if len(byAnalyzer) == 0 {
		return 0
	}
	data, err := json.MarshalIndent(map[string]any{id: byAnalyzer}, "", "\t")
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
		return 1
	}
	fmt.Fprintf(out, "%s\n", data)
	return 0
}

// toJSON converts d as unitchecker does: a missing end is the start.
func toJSON(fset *token.FileSet, d analysis.Diagnostic) jsonDiagnostic {
	pos := func(p token.Pos) string { return fset.Position(p).String() }
	j := jsonDiagnostic{Category: d.Category, Posn: pos(d.Pos), End: pos(cmp.Or(d.End, d.Pos)), Message: d.Message}
	for _, f := range d.SuggestedFixes {
		jf := jsonFix{Message: f.Message}
		for _, e := range f.TextEdits {
			name, ed := toEdit(fset, e)
			jf.Edits = append(jf.Edits, jsonEdit{Filename: name, Start: ed.start, End: ed.end, New: ed.text})
		}
		j.SuggestedFixes = append(j.SuggestedFixes, jf)
	}
	for _, r := range d.Related {
		j.Related = append(j.Related, jsonRelatedInfo{Posn: pos(r.Pos), End: pos(cmp.Or(r.End, r.Pos)), Message: r.Message})
	}
	return j
}

// edit is a text edit as byte offsets in one file.
type edit struct {
	start, end int
	text       string
}

// toEdit returns the name of the file that e edits and e as byte offsets
// in it (an edit without an end inserts at its start).
func toEdit(fset *token.FileSet, e analysis.TextEdit) (string, edit) {
	end := e.End
	if !end.IsValid() {
		end = e.Pos
	}
	file := fset.File(e.Pos)
	return file.Name(), edit{file.Offset(e.Pos), file.Offset(end), string(e.NewText)}
}

// writeFixArchive applies the first suggested fix of each diagnostic (fixes
// that overlap one already taken are skipped) and writes the fixed files to
// the zip archive that go vet -fix and go fix read.
func writeFixArchive(fset *token.FileSet, archive string, results []*factpass.Result) int {
	if archive == "" {
		return 0
	}
	byFile := map[string][]edit{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			fix := map[string][]edit{}
			for _, e := range d.SuggestedFixes[0].TextEdits {
				name, ed := toEdit(fset, e)
				fix[name] = append(fix[name], ed)
			}
			if !conflicts(byFile, fix) {
				for name, es := range fix {
					byFile[name] = append(byFile[name], es...)
				}
			}
		}
	}
	f, err := os.Create(archive)
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
		return 1
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	names := make([]string, 0, len(byFile))
	for name := range byFile {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
			return 1
		}
		fixed := apply(src, byFile[name])
		if formatted, err := format.Source(fixed); err == nil {
			fixed = formatted
		}
		w, err := zw.Create(name)
		if err == nil {
			_, err = w.Write(fixed)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "jitlint: writing the fix archive: %v\n", err)
			return 1
		}
	}
	if err := zw.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: writing the fix archive: %v\n", err)
		return 1
	}
	return 0
}

// conflicts reports whether an edit of fix overlaps a different edit already taken.
func conflicts(taken, fix map[string][]edit) bool {
	for name, es := range fix {
		for _, e := range es {
			for _, t := range taken[name] {
				if e != t && e.start < t.end && t.start < e.end {
					return true
				}
			}
		}
	}
	return false
}

// apply applies non-overlapping edits to src (identical edits once).
func apply(src []byte, edits []edit) []byte {
	sort.Slice(edits, func(i, j int) bool {
		if edits[i].start != edits[j].start {
			return edits[i].start < edits[j].start
		}
		return edits[i].end < edits[j].end
	})
	var out []byte
	last := 0
	for i, e := range edits {
		if i > 0 && e == edits[i-1] {
			continue
		}
		out = append(out, src[last:e.start]...)
		out = append(out, e.text...)
		last = e.end
	}
	return append(out, src[last:]...)
}
