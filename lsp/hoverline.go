package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/previewer"
	"github.com/jitlint/jitlint/internal/richtext"
	"github.com/jitlint/jitlint/internal/snapshot"
	"github.com/jitlint/jitlint/internal/textdoc"
	"github.com/jitlint/jitlint/jit/preview/result"
)

// maxLineEqns bounds the equations a line hover lists (an unrolled loop
// stages its body's equations once per iteration).
const maxLineEqns = 30

// lineHover answers a hover on a line in the body of a traced function (in
// a trusted workspace): the equations of the function's jaxpr preview that
// the line staged, from the tracer's source map. nil when the line staged
// none or there is no preview (the function's name hover shows why).
func (s *Server) lineHover(ctx context.Context, res *pkgResult, path string, off int, m *textdoc.Mapper) *protocol.Hover {
	tf := res.DeclaredAt(path, off)
	if tf == nil || tf.SigErr != "" || s.mayRun(tf.File) != nil {
		return nil
	}
	r, err := s.runPreview(ctx, res, tf, result.Jaxpr)
	if err != nil || userError(tf, r) != nil {
		return nil
	}
	line := int(m.Position(off).Line) + 1
	eqns := previewer.LineEquations(r, path, line)
	if len(eqns) == 0 {
		return nil
	}
	text := new(richtext.Text).Strong(fmt.Sprintf("Line %d staged %d equation(s)", line, len(eqns))).
		Prose(" in the jaxpr of " + tf.Name + "(" + tf.Signature() + ")").Para()
	shown := eqns
	if len(shown) > maxLineEqns {
		shown = shown[:maxLineEqns]
	}
	text.Block(strings.Join(shown, "\n"))
	if len(eqns) > len(shown) {
		text.Para().Prose(fmt.Sprintf("… and %d more.", len(eqns)-len(shown)))
	}
	start, end, _ := snapshot.LineSpan(res.Parsed.Contents[path], line)
	rng := m.Range(start, end)
	return &protocol.Hover{Contents: s.caps().markup(text), Range: &rng}
}
