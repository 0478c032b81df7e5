package suppress

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// FuzzParse checks the suppression directive parser on any comment text,
// both alone on a line and after code: it never panics, every directive is
// either malformed (with an explanation) or names at least one analyzer
// without blanks or commas, and an ignore directive suppresses its own line
// (after code) or the next one (alone).
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"//jitlint:ignore tracedbool reason", "//jitlint:file-ignore staticargs,shapechurn sweeps", "//jitlint:ignore",
		"//jitlint:ignore a,,b x // remark", "//jitlint:nosuch x", "//jitlint:ignorefoo", "//jitlint:ignore\ttracedbool\treason",
		"//jitlint:ignore ,", "//jitlint:",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, comment string) {
		if !strings.HasPrefix(comment, "//") || strings.ContainsAny(comment, "\n\r") {
			return
		}
		for _, trailing := range []bool{false, true} {
			src := "package p\n\nfunc f() {\n\t" + comment + "\n\t_ = 1\n}\n"
			own := 4
			if trailing {
				src = "package p\n\nfunc f() {\n\t_ = 1 " + comment + "\n}\n"
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
			if err != nil {
				return
			}
			for _, d := range Parse(fset, file) {
				switch {
				case d.Malformed != "":
					if len(d.Analyzers) > 0 && strings.HasPrefix(d.Malformed, "unknown") {
						t.Fatalf("%q: malformed directive with analyzers %q", comment, d.Analyzers)
					}
				case len(d.Analyzers) == 0:
					t.Fatalf("%q: a well-formed directive names no analyzer", comment)
				case d.FileWide && d.Line != 0:
					t.Fatalf("%q: file-ignore with line %d", comment, d.Line)
				case !d.FileWide && trailing && d.Line != own:
					t.Fatalf("%q after code suppresses line %d, want %d", comment, d.Line, own)
				case !d.FileWide && !trailing && d.Line != own+1:
					t.Fatalf("%q alone suppresses line %d, want %d", comment, d.Line, own+1)
				}
				for _, a := range d.Analyzers {
					if a == "" || strings.ContainsAny(a, " \t,") {
						t.Fatalf("%q: analyzer name %q", comment, a)
					}
				}
			}
		}
	})
}
