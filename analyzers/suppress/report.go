package suppress

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/jitapi"
)

// newDirectiveAnalyzer returns the analyzer that reports the bad directives
// of a package: malformed ones, ones without a reason or naming an unknown
// analyzer, and, for each analyzer of wrapped it names, ones that suppressed
// none of that analyzer's findings. Like the other analyzers it looks only at
// packages that import jit (go vet -vettool skips the others unread).
func newDirectiveAnalyzer(parser *analysis.Analyzer, wrapped []*analysis.Analyzer, known []string) *analysis.Analyzer {
	requires := append([]*analysis.Analyzer{parser}, wrapped...)
	return &analysis.Analyzer{
		Name: Name,
		Doc: "report bad jitlint suppression directives\n\n" +
			"Reports //jitlint:ignore and //jitlint:file-ignore directives that have no reason, " +
			"name an unknown analyzer, or suppress no finding.",
		URL:      traced.DocURL(Name),
		Requires: requires,
		Run: func(pass *analysis.Pass) (any, error) {
			if !jitapi.ImportsJit(pass.Pkg) {
				return nil, nil
			}
			set := pass.ResultOf[parser].(*Set)
			byName := map[string]used{Name: {}}
			for _, a := range wrapped {
				byName[a.Name] = pass.ResultOf[a].(used)
			}
			// Directives may name "directive" too (a generated file, say):
			// those are checked last, once it is known what they suppressed.
			var own []*Directive
			for _, d := range set.Directives() {
				if slices.Contains(d.Analyzers, Name) {
					own = append(own, d)
				}
				for _, msg := range problems(d, known, byName) {
					if dir := set.Suppressor(Name, d.Pos); dir != nil {
						byName[Name][dir] = true
						continue
					}
					pass.Report(analysis.Diagnostic{Pos: d.Pos, End: d.End, Message: msg})
				}
			}
			for _, d := range own {
				if !byName[Name][d] {
					pass.Report(analysis.Diagnostic{Pos: d.Pos, End: d.End, Message: unused(d, Name)})
				}
			}
			return nil, nil
		},
	}
}

// problems returns what is wrong with d; byName holds the directives used
// by each analyzer that ran (whether d's "directive" suppressed something
// is checked after all the others).
func problems(d *Directive, known []string, byName map[string]used) []string {
	if d.Malformed != "" {
		return []string{d.Malformed}
	}
	var out []string
	for _, name := range d.Analyzers {
		if name == Name {
			continue
		}
		if !slices.Contains(known, name) {
			out = append(out, fmt.Sprintf("%s names the unknown analyzer %q (known: %s)", directiveName(d), name, strings.Join(known, ", ")))
			continue
		}
		if u, ran := byName[name]; ran && !u[d] {
			out = append(out, unused(d, name))
		}
	}
	if d.Reason == "" {
		out = append(out, fmt.Sprintf("%s %s has no reason: say why the finding is wrong or accepted, after the analyzer names", directiveName(d), strings.Join(d.Analyzers, ",")))
	}
	return out
}

// unused says that d's name suppressed nothing.
func unused(d *Directive, name string) string {
	where := fmt.Sprintf("on line %d", d.Line)
	if d.FileWide {
		where = "in this file"
	}
	return fmt.Sprintf("%s %s suppresses nothing: %s reports no finding %s; remove it from the directive", directiveName(d), name, name, where)
}
