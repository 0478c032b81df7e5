package previewer

import (
	"context"
	"fmt"
	"go/types"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/jitlint/jitlint/jit/preview/result"
)

// Source is a package that harnesses are generated for and built in.
type Source struct {
	Dir   string
	Name  string            // the package's name
	Types *types.Package    // its types (for the harness's type names and imports)
	Files map[string][]byte // its files as they are to be built (nil: the disk's), see Package
	Deps  []string          // see Package
}

// Package generates the harness of targets and returns its build.
func (s *Source) Package(targets []Target) (*Package, error) {
	harness, err := Generate(s.Name, s.Types, targets)
	if err != nil {
		return nil, err
	}
	return NewPackage(s.Dir, harness, s.Files, s.Deps), nil
}

// JaxprDiff is a traced function's jaxprs under two input signatures and
// what differs between them.
type JaxprDiff struct {
	Function string    `json:"function"`
	Specs    [2]string `json:"signatures"` // in //jit:args syntax
	Jaxprs   [2]string `json:"jaxprs"`
	// Diff is a unified diff from the first jaxpr to the second, each
	// printed with one equation per line ("" when they print the same).
	Diff string `json:"diff"`
	// Summary says in one line what differs: input and output avals,
	// equation counts (nested jaxprs included), primitives.
	Summary string `json:"summary"`
}

// Diff traces t under the two signatures specs, in //jit:args syntax
// (one harness build for both), and compares the jaxprs; report
// describes the progress. It builds and runs src's code: whether it may is
// the caller's business.
func (e *Engine) Diff(ctx context.Context, src *Source, t Target, specs [2]string, report func(string)) (*JaxprDiff, error) {
	if t.Sig == nil {
		return nil, fmt.Errorf("%s cannot be traced: its type is unknown (the package has type errors)", t.Func)
	}
	var sides []Target
	for i, spec := range specs {
		args, err := ParseArgs(spec)
		if err != nil {
			return nil, fmt.Errorf("signature %d %q: %v", i+1, spec, err)
		}
		if _, msg := Mismatch(t.Func, t.Sig, t.Static, args, fmt.Sprintf("signature %d", i+1)); msg != "" {
			return nil, fmt.Errorf("%s", msg)
		}
		v := t
		v.Key, v.Args = fmt.Sprintf("%s#%d", t.Key, i+1), args
		sides = append(sides, v)
	}
	pkg, err := src.Package(sides)
	if err != nil {
		return nil, err
	}
	var rs [2]*result.Preview
	for i, v := range sides {
		r, err := e.Preview(ctx, pkg, v.Key, result.Jaxpr, report)
		if err == nil {
			err = UserError(t.Func, Signature(v.Args), "", r)
		}
		if err != nil {
			return nil, err
		}
		rs[i] = r
	}
	d := &JaxprDiff{Function: t.Func, Specs: [2]string{Signature(sides[0].Args), Signature(sides[1].Args)},
		Jaxprs: [2]string{rs[0].Jaxpr, rs[1].Jaxpr}}
	d.Diff = unifiedDiff(t.Func+"("+d.Specs[0]+")", t.Func+"("+d.Specs[1]+")", eqnPerLine(rs[0]), eqnPerLine(rs[1]))
	d.Summary = diffSummary(rs[0], rs[1])
	return d, nil
}

// Signature prints args in directive syntax.
func Signature(args []Arg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.String()
	}
	return strings.Join(parts, ", ")
}

// sourceComment is the "  # file.go:line" the source-info printing
// appends to an equation.
var sourceComment = regexp.MustCompile(`  # ([^ ]+:[0-9]+)$`)

// SplitSource splits a line of a jaxpr printed with source information
// (result.Preview.JaxprSources) into the line without its "  # file.go:12"
// and that "file.go:12" ("" when the line has none).
func SplitSource(line string) (eqn, where string) {
	m := sourceComment.FindStringSubmatchIndex(line)
	if m == nil {
		return line, ""
	}
	return line[:m[0]], line[m[2]:m[3]]
}

// eqnPerLine is the jaxpr printed with every equation on its own line (the
// source-info layout without the comments), which diffs line by line.
func eqnPerLine(r *result.Preview) string {
	lines := strings.Split(r.JaxprSources, "\n")
	for i, l := range lines {
		lines[i], _ = SplitSource(l)
	}
	return strings.Join(lines, "\n")
}

// diffSummary says in one line how b differs from a.
func diffSummary(a, b *result.Preview) string {
	var parts []string
	avals := func(what string, x, y []string) {
		if !slices.Equal(x, y) {
			parts = append(parts, fmt.Sprintf("%s (%s) → (%s)", what, strings.Join(x, ", "), strings.Join(y, ", ")))
		}
	}
	avals("inputs", a.In, b.In)
	avals("outputs", a.Out, b.Out)
	na, nb := len(a.Sources), len(b.Sources)
	if na == nb {
		parts = append(parts, fmt.Sprintf("%d equations in both", na))
	} else {
		parts = append(parts, fmt.Sprintf("equations %d → %d", na, nb))
	}
	count := func(r *result.Preview) map[string]int {
		m := map[string]int{}
		for _, e := range r.Sources {
			m[e.Prim]++
		}
		return m
	}
	ca, cb := count(a), count(b)
	var prims []string
	for _, p := range slices.Sorted(maps.Keys(mergeKeys(ca, cb))) {
		switch x, y := ca[p], cb[p]; {
		case x == y:
		case x == 0:
			prims = append(prims, fmt.Sprintf("+%s×%d", p, y))
		case y == 0:
			prims = append(prims, fmt.Sprintf("−%s×%d", p, x))
		default:
			prims = append(prims, fmt.Sprintf("%s %d→%d", p, x, y))
		}
	}
	if len(prims) == 0 {
		parts = append(parts, "same primitives")
	} else {
		parts = append(parts, "primitives "+strings.Join(prims, ", "))
	}
	if a.Jaxpr == b.Jaxpr {
		parts = append(parts, "identical jaxprs")
	}
	return strings.Join(parts, "; ")
}

func mergeKeys(a, b map[string]int) map[string]int {
	m := maps.Clone(a)
	for k := range b {
		m[k] = 0
	}
	return m
}
