package lsp

import (
	"context"
	"fmt"
	"github.com/jitlint/jitlint/internal/snapshot"
	"path/filepath"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/previewer"
	"github.com/jitlint/jitlint/jit/preview/result"
)

// maxLineEqns bounds the equations a line hover lists (an unrolled loop
// stages its body's equations once per iteration).
const maxLineEqns = 30

// lineHover answers a hover on a line in the body of a traced function (in
// a trusted workspace): the equations of the function's jaxpr preview that
// the line staged, from the tracer's source map. nil when the line staged
// none or there is no preview (the function's name hover shows why).
func (s *Server) lineHover(ctx context.Context, res *pkgResult, path string, off int, m *mapper) *protocol.Hover {
	tf := res.DeclaredAt(path, off)
	if tf == nil || tf.SigErr != "" || s.mayRun(tf.File) != nil {
		return nil
	}
	r, err := s.runPreview(ctx, res, tf, result.Jaxpr)
	if err != nil || userError(tf, r) != nil {
		return nil
	}
	line := int(m.position(off).Line) + 1
	eqns := lineEquations(r, path, line)
	if len(eqns) == 0 {
		return nil
	}
	text := new(markup).strong(fmt.Sprintf("Line %d staged %d equation(s)", line, len(eqns))).
		text(" in the jaxpr of " + tf.Name + "(" + tf.Signature() + ")").para()
	shown := eqns
	if len(shown) > maxLineEqns {
		shown = shown[:maxLineEqns]
	}
	text.block(strings.Join(shown, "\n"))
	if len(eqns) > len(shown) {
		text.para().text(fmt.Sprintf("… and %d more.", len(eqns)-len(shown)))
	}
	start, end, _ := snapshot.LineSpan(res.Parsed.Contents[path], line)
	rng := m.rangeOf(start, end)
	return &protocol.Hover{Contents: s.caps().markup(text), Range: &rng}
}

// lineEquations returns the equations of r staged at path:line as they are
// printed; an equation printed on several lines (one with a nested jaxpr)
// is shortened to its first and last lines.
func lineEquations(r *result.Preview, path string, line int) []string {
	want := filepath.Base(path) + ":" + strconv.Itoa(line)
	known := false
	for _, e := range r.Sources {
		if e.File == path && e.Line == line {
			known = true
			break
		}
	}
	if !known {
		return nil
	}
	lines := strings.Split(r.JaxprSources, "\n")
	var out []string
	for j, l := range lines {
		eq, where := previewer.SplitSource(l)
		if where != want {
			continue
		}
		eq = strings.TrimSpace(eq)
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if strings.HasPrefix(eq, "]") || strings.HasPrefix(eq, ")") {
			for k := j - 1; k >= 0; k-- {
				if lk := lines[k]; len(lk)-len(strings.TrimLeft(lk, " ")) == indent {
					eq = strings.TrimSpace(lk) + " … " + eq
					break
				}
			}
		}
		out = append(out, eq)
	}
	return out
}
