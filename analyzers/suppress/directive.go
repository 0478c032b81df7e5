package suppress

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// The two directive forms.
const (
	ignorePrefix     = "//jitlint:ignore"
	fileIgnorePrefix = "//jitlint:file-ignore"
)

// Directive is one //jitlint:ignore or //jitlint:file-ignore comment.
type Directive struct {
	// Pos and End delimit the comment.
	Pos, End token.Pos
	// Filename is the file the comment is in (as the FileSet names it).
	Filename string
	// Line is the line an ignore directive suppresses: its own line when
	// code precedes it there, else the next line. It is 0 for file-ignore.
	Line int
	// FileWide is true for //jitlint:file-ignore.
	FileWide bool
	// Analyzers are the analyzer names the directive lists.
	Analyzers []string
	// Reason is the text after the names ("" when missing).
	Reason string
	// Malformed explains what is wrong with a comment that starts like a
	// directive but is none ("" for a well-formed one).
	Malformed string
}

// Parse returns the directives in the comments of f, in source order.
func Parse(fset *token.FileSet, f *ast.File) []*Directive {
	var out []*Directive
	var code map[int]int // line → smallest column where code starts or ends
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if !strings.HasPrefix(c.Text, "//jitlint:") {
				continue
			}
			if code == nil {
				code = codeColumns(fset, f)
			}
			out = append(out, parseComment(fset, c, code))
		}
	}
	return out
}

// parseComment parses one comment that starts with //jitlint:.
func parseComment(fset *token.FileSet, c *ast.Comment, code map[int]int) *Directive {
	pos := fset.Position(c.Pos())
	d := &Directive{Pos: c.Pos(), End: c.End(), Filename: pos.Filename}
	var rest string
	switch {
	case hasWord(c.Text, fileIgnorePrefix):
		d.FileWide, rest = true, c.Text[len(fileIgnorePrefix):]
	case hasWord(c.Text, ignorePrefix):
		rest = c.Text[len(ignorePrefix):]
		d.Line = pos.Line + 1
		if col, ok := code[pos.Line]; ok && col < pos.Column {
			d.Line = pos.Line
		}
	default:
		kind, _, _ := strings.Cut(c.Text[2:], " ")
		d.Malformed = fmt.Sprintf("unknown directive //%s: the directives are //jitlint:ignore and //jitlint:file-ignore", kind)
		return d
	}
	// A comment after the directive ("... // see #12") is not part of it.
	rest, _, _ = strings.Cut(rest, " //")
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		d.Malformed = fmt.Sprintf("%s names no analyzer: write %s <analyzer>[,<analyzer>] <reason>", directiveName(d), directiveName(d))
		return d
	}
	for _, name := range strings.Split(fields[0], ",") {
		if name != "" {
			d.Analyzers = append(d.Analyzers, name)
		}
	}
	if len(d.Analyzers) == 0 { // "//jitlint:ignore , reason"
		d.Malformed = fmt.Sprintf("%s names no analyzer: write %s <analyzer>[,<analyzer>] <reason>", directiveName(d), directiveName(d))
		return d
	}
	d.Reason = strings.Join(fields[1:], " ")
	return d
}

// hasWord reports whether text is prefix followed by the end or a blank.
func hasWord(text, prefix string) bool {
	rest, ok := strings.CutPrefix(text, prefix)
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t')
}

// directiveName is "//jitlint:ignore" or "//jitlint:file-ignore".
func directiveName(d *Directive) string {
	if d.FileWide {
		return fileIgnorePrefix
	}
	return ignorePrefix
}

// codeColumns maps each line of f that holds code to the smallest column at
// which a syntax node starts or ends on it (comments excluded), so that a
// directive can tell whether it ends a line of code or stands alone.
func codeColumns(fset *token.FileSet, f *ast.File) map[int]int {
	cols := map[int]int{}
	note := func(p token.Pos) {
		if !p.IsValid() {
			return
		}
		pos := fset.Position(p)
		if c, ok := cols[pos.Line]; !ok || pos.Column < c {
			cols[pos.Line] = pos.Column
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case nil:
			return false
		case *ast.CommentGroup, *ast.Comment:
			return false
		}
		note(n.Pos())
		note(n.End() - 1)
		return true
	})
	return cols
}

// Matches reports whether d suppresses the findings of analyzer at pos.
func (d *Directive) Matches(analyzer string, pos token.Position) bool {
	if d.Malformed != "" || pos.Filename != d.Filename || (!d.FileWide && pos.Line != d.Line) {
		return false
	}
	for _, name := range d.Analyzers {
		if name == analyzer {
			return true
		}
	}
	return false
}
