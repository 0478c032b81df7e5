package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

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

// diffJaxpr traces tf under the two signatures (one harness build for
// both) and compares the jaxprs. Trust is the caller's business.
func (s *Server) diffJaxpr(ctx context.Context, res *pkgResult, tf *tracedFunc, specs [2]string) (*JaxprDiff, error) {
	if tf.sig == nil {
		return nil, &previewError{fmt.Sprintf("%s cannot be traced: its type is unknown (the package has type errors)", tf.name)}
	}
	var sides []*tracedFunc
	for i, spec := range specs {
		args, err := parseArgsDirective(spec)
		if err != nil {
			return nil, &previewError{fmt.Sprintf("signature %d %q: %v", i+1, spec, err)}
		}
		if _, msg := argsMismatch(tf, args, fmt.Sprintf("signature %d", i+1)); msg != "" {
			return nil, &previewError{msg}
		}
		v := *tf
		v.args, v.defaulted, v.sigErr, v.variant = args, false, "", fmt.Sprintf("#%d", i+1)
		sides = append(sides, &v)
	}
	in, err := s.previews.prepare(res, sides)
	if err != nil {
		return nil, err
	}
	pr := s.startProgress(ctx, "jitls: tracing "+tf.name+" twice for a jaxpr diff")
	var rs [2]*previewResult
	for i, v := range sides {
		r, err := s.previews.preview(ctx, in, v.key(), modeJaxpr, pr.report)
		if err == nil {
			err = userError(v, r)
		}
		if err != nil {
			pr.end("failed")
			return nil, err
		}
		rs[i] = r
	}
	pr.end("done")
	d := &JaxprDiff{Function: tf.name, Specs: [2]string{sides[0].signature(), sides[1].signature()},
		Jaxprs: [2]string{rs[0].Jaxpr, rs[1].Jaxpr}}
	d.Diff = unifiedDiff(tf.name+"("+d.Specs[0]+")", tf.name+"("+d.Specs[1]+")", eqnPerLine(rs[0]), eqnPerLine(rs[1]))
	d.Summary = diffSummary(rs[0], rs[1])
	return d, nil
}

// sourceComment is the "  # file.go:line" the source-info printing
// appends to an equation.
var sourceComment = regexp.MustCompile(`  # [^ ]+:[0-9]+$`)

// eqnPerLine is the jaxpr printed with every equation on its own line (the
// source-info layout without the comments), which diffs line by line.
func eqnPerLine(r *previewResult) string {
	lines := strings.Split(r.JaxprSources, "\n")
	for i, l := range lines {
		lines[i] = sourceComment.ReplaceAllString(l, "")
	}
	return strings.Join(lines, "\n")
}

// diffSummary says in one line how b differs from a.
func diffSummary(a, b *previewResult) string {
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
	count := func(r *previewResult) map[string]int {
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

// DiffJaxpr traces the traced function named function of the package in dir
// under two signatures in //jit:args syntax (e.g. "f32[4]" and "f32[8]") and
// compares the jaxprs, as the jitls.diffJaxpr command does; it builds and
// runs the package's code (go test -c in a temporary directory it removes).
// cmd/jitlint's jaxpr-diff subcommand calls it.
func DiffJaxpr(ctx context.Context, dir, function, specA, specB string) (*JaxprDiff, error) {
	s := New(Options{})
	defer s.procs.stop()
	u, err := loadUniverse(ctx, dir, nil, s.procs.goEnv())
	if err != nil {
		return nil, err
	}
	pp, err := parsePackage(u, nil, false)
	if err != nil {
		return nil, err
	}
	if pp.pkg.IllTyped && len(pp.pkg.TypeErrors) > 0 {
		return nil, fmt.Errorf("%s does not type-check: %v", dir, pp.pkg.TypeErrors[0])
	}
	run, err := runAnalyzers(nil, pp.pkg, nil)
	if err != nil {
		return nil, err
	}
	res := &pkgResult{dir: dir, pp: pp, uni: u}
	res.traced, _ = scanTraced(pp.pkg, run.traced)
	tf := res.tracedNamed(function)
	if tf == nil {
		var names []string
		for _, t := range res.traced {
			names = append(names, t.name)
		}
		return nil, fmt.Errorf("%s is not a traced top-level function of %s (pass it to jit.Jit or mark it //jit:traced); traced functions there: %s",
			function, u.pkgPath, strings.Join(names, ", "))
	}
	return s.diffJaxpr(ctx, res, tf, [2]string{specA, specB})
}

// diffJaxprCommand carries out jitls.diffJaxpr.
func (s *Server) diffJaxprCommand(ctx context.Context, args []json.RawMessage) (any, error) {
	var arg struct {
		URI        protocol.DocumentURI `json:"uri"`
		Function   string               `json:"function"`
		Signatures []string             `json:"signatures"`
	}
	if len(args) != 1 || json.Unmarshal(args[0], &arg) != nil || arg.URI == "" || arg.Function == "" || len(arg.Signatures) != 2 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes one argument {\"uri\": \"file:///…\", \"function\": \"Name\", \"signatures\": [\"f32[4]\", \"f32[8]\"]}", CommandDiffJaxpr)
	}
	res, tf, err := s.commandTarget(ctx, arg.URI, arg.Function)
	if err != nil {
		return nil, err
	}
	d, err := s.diffJaxpr(ctx, res, tf, [2]string{arg.Signatures[0], arg.Signatures[1]})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, jsonrpc2.NewError(errRequestFailed, err.Error())
	}
	return d, nil
}
