package main

import (
	"bytes"
	"cmp"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// rule is what a finding comes from: an analyzer, or one of the reports
// of a run's events (runtime.go).
type rule struct {
	name string
	doc  string // the first line is its summary
	url  string // its documentation (a section of docs/analyzers.md)
}

// analyzerRule is the rule of an analyzer.
func analyzerRule(a *analysis.Analyzer) *rule { return &rule{a.Name, a.Doc, a.URL} }

// finding is one diagnostic, as every output format prints it. Positions
// are go/token's: byte columns and offsets.
type finding struct {
	rule     *rule
	pkg      string // the ID of the package it was found in
	pos, end token.Position
	category string
	message  string
	related  []related
	fixes    []fix
	// runtime is what the run's events say about a finding of an analyzer
	// (a runtime* constant; "" without -events).
	runtime string
	// funcLine is the line of the func keyword of the function that
	// contains the finding (0 outside functions), to match it with the
	// functions that the run traced.
	funcLine int
	// props are extra properties for JSON and SARIF (reports of events).
	props map[string]any
}

// related is a secondary position of a finding.
type related struct {
	pos, end token.Position
	message  string
}

// fix is a suggested fix: edits of one or more files.
type fix struct {
	message string
	edits   []textEdit
}

// textEdit replaces the bytes from start to end with text.
type textEdit struct {
	start, end token.Position
	text       string
}

// newFinding converts a diagnostic of rule r in package pkg, whose syntax
// is files: a missing end is the start, as unitchecker has it.
func newFinding(fset *token.FileSet, files []*ast.File, r *rule, pkg string, d analysis.Diagnostic) *finding {
	pos := func(p token.Pos) token.Position { return fset.Position(p) }
	f := &finding{rule: r, pkg: pkg, pos: pos(d.Pos), end: pos(cmp.Or(d.End, d.Pos)), category: d.Category,
		message: d.Message, funcLine: enclosingFuncLine(fset, files, d.Pos)}
	for _, rel := range d.Related {
		f.related = append(f.related, related{pos(rel.Pos), pos(cmp.Or(rel.End, rel.Pos)), rel.Message})
	}
	for _, sf := range d.SuggestedFixes {
		fx := fix{message: sf.Message}
		for _, e := range sf.TextEdits {
			// Edits are of the file itself, not of what //line directives name.
			fx.edits = append(fx.edits, textEdit{fset.PositionFor(e.Pos, false), fset.PositionFor(cmp.Or(e.End, e.Pos), false), string(e.NewText)})
		}
		f.fixes = append(f.fixes, fx)
	}
	return f
}

// enclosingFuncLine returns the line of the innermost function declaration
// or literal of files that contains p, or 0.
func enclosingFuncLine(fset *token.FileSet, files []*ast.File, p token.Pos) int {
	line := 0
	for _, file := range files {
		if file.FileStart <= p && p <= file.FileEnd {
			ast.Inspect(file, func(n ast.Node) bool {
				if n == nil || p < n.Pos() || n.End() <= p {
					return false
				}
				switch n.(type) {
				case *ast.FuncDecl, *ast.FuncLit:
					line = fset.Position(n.Pos()).Line
				}
				return true
			})
		}
	}
	return line
}

// dedupe drops the findings that repeat an earlier one (a file of a package
// is also in its test variant), keeping the first.
func dedupe(fs []*finding) []*finding {
	type key struct {
		rule     string
		pos, end token.Position
		message  string
	}
	seen := map[key]bool{}
	return slices.DeleteFunc(fs, func(f *finding) bool {
		k := key{f.rule.name, f.pos, f.end, f.message}
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
}

// sortFindings orders findings by file and position.
func sortFindings(fs []*finding) {
	slices.SortStableFunc(fs, func(a, b *finding) int {
		return cmp.Or(cmp.Compare(a.pos.Filename, b.pos.Filename), cmp.Compare(a.pos.Offset, b.pos.Offset),
			cmp.Compare(a.rule.name, b.rule.name), cmp.Compare(a.message, b.message))
	})
}

// sources reads and keeps the content of the files that findings name.
type sources map[string][]byte

// get returns the content of file (nil when it cannot be read).
func (s sources) get(file string) []byte {
	data, ok := s[file]
	if !ok {
		data, _ = os.ReadFile(file)
		s[file] = data
	}
	return data
}

// lineBounds returns the byte offsets in file of the start and the end
// (its newline excluded) of line n (1-based).
func (s sources) lineBounds(file string, n int) (start, end int, ok bool) {
	data := s.get(file)
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data[start:], '\n')
		if j < 0 {
			return 0, 0, false
		}
		start += j + 1
	}
	end = len(data)
	if j := bytes.IndexByte(data[start:], '\n'); j >= 0 {
		end = start + j
	}
	return start, end, true
}

// line returns line n (1-based) of file without its newline, or "".
func (s sources) line(file string, n int) string {
	start, end, ok := s.lineBounds(file, n)
	if !ok {
		return ""
	}
	return string(s.get(file)[start:end])
}

// runeColumn converts the byte column of p to a column in Unicode code
// points (as SARIF and GitHub count them).
func (s sources) runeColumn(p token.Position) int {
	line := s.line(p.Filename, p.Line)
	if p.Column-1 > len(line) {
		return p.Column
	}
	return utf8.RuneCountInString(line[:p.Column-1]) + 1
}

// pathNamer names files relative to a root directory (the current one),
// as SARIF and GitHub want them, when they are under it.
type pathNamer struct{ root string }

// rel returns file relative to the root with slashes, or file itself when
// it is not under the root.
func (p *pathNamer) rel(file string) string {
	r, err := filepath.Rel(p.root, file)
	if err != nil || !filepath.IsLocal(r) {
		return file
	}
	return filepath.ToSlash(r)
}
