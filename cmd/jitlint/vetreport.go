package main

import (
	"archive/zip"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"io"
	"os"
	"sort"

	"github.com/jitlint/jitlint/internal/factpass"
	"golang.org/x/tools/go/analysis"
)

// report prints the results of a package: JSON for go vet (see
// format_json.go), or go vet's text on stderr. It returns the exit status.
func report(out io.Writer, fset *token.FileSet, files []*ast.File, id string, results []*factpass.Result, asJSON bool) int {
	var fs []*finding
	var errs []analysisError
	for _, r := range results {
		if r.Err != nil {
			errs = append(errs, analysisError{id, r.Analyzer.Name, r.Err})
		}
		for _, d := range r.Diagnostics {
			fs = append(fs, newFinding(fset, files, analyzerRule(r.Analyzer), id, d))
		}
	}
	if asJSON {
		if err := printJSON(out, fs, errs); err != nil {
			fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
			return 1
		}
		return 0
	}
	for _, e := range errs {
		fmt.Fprintf(os.Stderr, "jitlint: %s: %v\n", e.analyzer, e.err)
	}
	printText(os.Stderr, fs, -1, sources{})
	if len(errs) > 0 || len(fs) > 0 {
		return 1
	}
	return 0
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
