// Package suppress implements jitlint's suppression directives.
//
//	x.Bool() //jitlint:ignore tracedbool <reason>       suppresses on this line
//	//jitlint:ignore tracedbool,traceeffect <reason>    alone on a line: suppresses on the next line
//	//jitlint:file-ignore staticargs <reason>           anywhere in a file: suppresses in the file
//
// Apply makes a suite's analyzers drop the findings that a directive of
// their package suppresses, and adds the analyzer named "directive", which
// reports directives without a reason, naming an unknown analyzer, or
// suppressing nothing. Because the filtering happens inside each analyzer's
// Run, every driver (jitlint, go vet -vettool, golangci-lint, the language
// server) suppresses the same findings.
package suppress

import (
	"go/ast"
	"go/token"
	"reflect"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/analysis"
)

// Name is the name of the analyzer that reports bad directives.
const Name = "directive"

// Set is the directives of one package.
type Set struct {
	fset   *token.FileSet
	all    []*Directive
	byFile map[string][]*Directive
}

// NewSet parses the directives of files.
func NewSet(fset *token.FileSet, files []*ast.File) *Set {
	s := &Set{fset: fset, byFile: map[string][]*Directive{}}
	for _, f := range files {
		for _, d := range Parse(fset, f) {
			s.all = append(s.all, d)
			s.byFile[d.Filename] = append(s.byFile[d.Filename], d)
		}
	}
	return s
}

// Directives returns the directives of the package, file by file in source order.
func (s *Set) Directives() []*Directive { return s.all }

// Suppressor returns the directive that suppresses the finding of analyzer
// at pos, or nil when none does.
func (s *Set) Suppressor(analyzer string, pos token.Pos) *Directive {
	if len(s.all) == 0 || !pos.IsValid() {
		return nil
	}
	p := s.fset.Position(pos)
	for _, d := range s.byFile[p.Filename] {
		if d.Matches(analyzer, p) {
			return d
		}
	}
	return nil
}

// used is the result of a wrapped analyzer: the directives that suppressed
// at least one of its findings in the package.
type used map[*Directive]bool

// newParser returns the prerequisite that parses a package's directives
// once for all the analyzers of a suite.
func newParser() *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "jitlintdirectives",
		Doc:        "parse the //jitlint:ignore and //jitlint:file-ignore directives of a package",
		ResultType: reflect.TypeOf((*Set)(nil)),
		Run: func(pass *analysis.Pass) (any, error) {
			if !jitapi.ImportsJit(pass.Pkg) {
				return NewSet(pass.Fset, nil), nil // the analyzers skip the package
			}
			return NewSet(pass.Fset, pass.Files), nil
		},
	}
}

// Apply makes the analyzers of a suite honour the directives and returns
// them followed by the directive analyzer. It changes the analyzers in place
// (they must be fresh, as analyzers.Suite makes them, and have no result of
// their own); known are the names a directive may use (the whole suite's,
// also those not in as). A directive naming a known analyzer that is not in
// as is not reported as suppressing nothing.
func Apply(as []*analysis.Analyzer, known []string) []*analysis.Analyzer {
	parser := newParser()
	for _, a := range as {
		if a.ResultType != nil {
			panic("suppress.Apply: analyzer " + a.Name + " has a result of its own")
		}
		wrap(a, parser)
	}
	return append(as, newDirectiveAnalyzer(parser, as, known))
}

// wrap changes analyzer a to report only the findings that no directive
// suppresses, and to return the directives that suppressed some.
func wrap(a, parser *analysis.Analyzer) {
	run := a.Run
	a.Requires = append(a.Requires, parser)
	a.ResultType = reflect.TypeOf(used(nil))
	a.Run = func(pass *analysis.Pass) (any, error) {
		set := pass.ResultOf[parser].(*Set)
		u := used{}
		filtered := *pass
		filtered.Report = func(d analysis.Diagnostic) {
			if dir := set.Suppressor(a.Name, d.Pos); dir != nil {
				u[dir] = true
				return
			}
			pass.Report(d)
		}
		if _, err := run(&filtered); err != nil {
			return nil, err
		}
		return u, nil
	}
}
