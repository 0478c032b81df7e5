package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
)

func (s *Server) hover(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.HoverParams
	if err := decodeParams("textDocument/hover", raw, &p); err != nil {
		return nil, err
	}
	res, path, err := s.resultFor(ctx, p.TextDocument.URI)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil
	}
	m := res.mappers[path]
	if m == nil {
		return nil, nil
	}
	off, err := m.offset(p.Position)
	if err != nil {
		return nil, nil
	}
	tf, sp := res.tracedAt(path, off)
	if tf == nil {
		return nil, nil
	}
	rng := m.rangeOf(sp.start, sp.end)
	text := s.hoverText(ctx, res, tf)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: text}, Range: &rng}, nil
}

// hoverText is the markdown shown on a traced function.
func (s *Server) hoverText(ctx context.Context, res *pkgResult, tf *tracedFunc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (traced by jit)\n\n", tf.name)
	r, err := s.runPreview(ctx, res, tf, modeJaxpr)
	if err == nil {
		err = userError(tf, r)
	}
	if err != nil {
		var pe *previewError
		if errors.As(err, &pe) && pe.msg == untrustedHelp {
			b.WriteString(untrustedHelp + "\n")
			return b.String()
		}
		fmt.Fprintf(&b, "No jaxpr preview:\n\n```text\n%s\n```\n", err)
		return b.String()
	}
	fmt.Fprintf(&b, "Input signature: `%s`", tf.signature())
	if tf.defaulted {
		b.WriteString(" (default shapes; choose others with a `//jit:args` directive, e.g. `//jit:args f32[1024]`)")
	}
	fmt.Fprintf(&b, "\n\n```text\n%s\n```\n\n%d equations", strings.TrimRight(r.Jaxpr, "\n"), r.Eqns)
	if m := s.previews.lastMeasured(res.dir, tf.name); m != nil {
		fmt.Fprintf(&b, " · %s", costTitle(m))
	}
	b.WriteString("\n")
	return b.String()
}

// costTitle is the one-line summary of a measurement.
func costTitle(m *previewResult) string {
	where := m.Backend
	if m.Device != "" && m.Backend != "cpu" {
		where += " (" + m.Device + ")"
	}
	title := fmt.Sprintf("compile %s · cached %s · %s", fmtMs(m.CompileMs+m.LowerMs), fmtMs(m.CachedCallMs), where)
	if m.GPUEstimate != "" {
		title += " · " + m.GPUEstimate
	}
	return title
}

func fmtMs(ms float64) string {
	switch {
	case ms >= 100:
		return fmt.Sprintf("%.0f ms", ms)
	case ms >= 1:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.2f ms", ms)
}
