package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/richtext"
	"github.com/jitlint/jitlint/internal/snapshot"
	"github.com/jitlint/jitlint/jit/preview/result"
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
	m := res.analysedMapper(path)
	if m == nil {
		return nil, nil
	}
	off, err := m.Offset(p.Position)
	if err != nil {
		return nil, nil
	}
	tf, sp := res.TracedAt(path, off)
	if tf == nil {
		if h := s.lineHover(ctx, res, path, off, m); h != nil {
			return h, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil
	}
	rng := m.Range(sp.Start, sp.End)
	text := s.hoverText(ctx, res, tf)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return &protocol.Hover{Contents: s.caps().markup(text), Range: &rng}, nil
}

// hoverText is the hover shown on a traced function, or on a
// transformation call (tf is then the transformed copy).
func (s *Server) hoverText(ctx context.Context, res *pkgResult, tf *snapshot.Func) *richtext.Text {
	m := new(richtext.Text).Strong(tf.Title())
	if tf.Xform != nil {
		m.Prose(" (the transformed function, traced by jit)").Para()
	} else {
		m.Prose(" (traced by jit)").Para()
	}
	r, err := s.runPreview(ctx, res, tf, result.Jaxpr)
	if err == nil {
		err = userError(tf, r)
	}
	if err != nil {
		var te *trustError
		if errors.As(err, &te) {
			return te.describe(m)
		}
		return m.Prose("No jaxpr preview:").Block(err.Error())
	}
	m.Prose("Input signature: ").Code(tf.Signature())
	if tf.Xform != nil {
		m.Prose(tf.Xform.BatchNote())
	} else if tf.Defaulted {
		m.Prose(" (default shapes; choose others with a ").Code("//jit:args").Prose(" directive, e.g. ").Code("//jit:args f32[1024]").Prose(")")
	}
	m.Block(r.Jaxpr).Prose(fmt.Sprintf("%d equations", r.Eqns))
	if c := s.previews.LastMeasured(res.Dir, tf.Key()); c != nil {
		m.Prose(" · " + costTitle(c))
	}
	return m
}

// costTitle is the one-line summary of a measurement.
func costTitle(m *result.Preview) string {
	where := m.Backend
	if m.Device != "" && m.Backend != "cpu" {
		where += " (" + m.Device + ")"
	}
	title := fmt.Sprintf("compile %s · cached %s · %s", snapshot.FormatMs(m.CompileMs+m.LowerMs), snapshot.FormatMs(m.CachedCallMs), where)
	if m.GPUEstimate != "" {
		title += " · " + m.GPUEstimate
	}
	return title
}
