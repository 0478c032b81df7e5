package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/snapshot"
)

func (s *Server) codeLens(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.CodeLensParams
	if err := decodeParams("textDocument/codeLens", raw, &p); err != nil {
		return nil, err
	}
	lenses := []protocol.CodeLens{}
	res, path, err := s.resultFor(ctx, p.TextDocument.URI)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return lenses, nil
	}
	m := res.analysedMapper(path)
	for _, tf := range res.Traced {
		if tf.File != path || m == nil {
			continue
		}
		start := m.Position(tf.DeclSpan.Start)
		rng := protocol.Range{Start: start, End: start}
		arg := map[string]any{"uri": string(p.TextDocument.URI), "function": tf.Name}
		cost := "compile cost"
		if r := s.previews.LastMeasured(res.Dir, tf.Name); r != nil {
			cost = costTitle(r)
		}
		lenses = append(lenses,
			protocol.CodeLens{Range: rng, Command: &protocol.Command{Title: s.jaxprLensTitle(res, tf), Command: CommandShowJaxpr, Arguments: []any{arg}}},
			protocol.CodeLens{Range: rng, Command: &protocol.Command{Title: cost, Command: CommandMeasureCompileCost, Arguments: []any{arg}}})
	}
	return lenses, nil
}

// jaxprLensTitle is "jaxpr", or says that the function's preview (run for
// the hover or the inlay hints) failed: clicking the lens shows why.
func (s *Server) jaxprLensTitle(res *pkgResult, tf *snapshot.Func) string {
	if s.mayRun(tf.File) != nil || tf.SigErr != "" {
		return "jaxpr"
	}
	if r, _ := s.cachedJaxpr(res, tf); r != nil && r.Failed() {
		return "jaxpr (tracing failed)"
	}
	return "jaxpr"
}

// refreshCodeLenses asks the client to re-request lenses (LSP 3.16), so
// that a measured cost shows in the lens title.
func (s *Server) refreshCodeLenses() {
	if !s.caps().codeLensRefresh {
		return
	}
	go func() {
		if err := s.conn.Call(context.Background(), "workspace/codeLens/refresh", nil, nil); err != nil {
			s.logf("jitls: workspace/codeLens/refresh: %v", err)
		}
	}()
}
