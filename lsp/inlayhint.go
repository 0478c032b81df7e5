package lsp

import (
	"context"
	"encoding/json"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/snapshot"
	"github.com/jitlint/jitlint/internal/textdoc"
	"github.com/jitlint/jitlint/jit/preview/result"
)

// Inlay hints show, in a trusted workspace, the aval of every Array
// parameter and of every local variable assigned an Array in a traced
// function, from the function's jaxpr preview (its //jit:args signature or
// the default one): `y := x.Sin()` reads `y: f32[8] := x.Sin()`. A local
// gets the result aval of the last equation its right-hand side staged (the
// value of a chained expression; in a loop, the last iteration). A request
// never waits for a preview: functions without a cached preview get none
// now, their previews run in the background, and workspace/inlayHint/refresh
// asks for hints again when they are done. A function whose preview failed
// gets no hints; its jaxpr lens says "tracing failed" and shows why.

// inlayHint is LSP 3.17's InlayHint (the protocol package predates it).
type inlayHint struct {
	Position    protocol.Position `json:"position"`
	Label       string            `json:"label"`
	Kind        int               `json:"kind"` // 1: Type
	PaddingLeft bool              `json:"paddingLeft,omitempty"`
}

const inlayHintType = 1

func (s *Server) inlayHint(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
		Range        protocol.Range                  `json:"range"`
	}
	if err := decodeParams("textDocument/inlayHint", raw, &p); err != nil {
		return nil, err
	}
	hints := []inlayHint{}
	if path, err := textdoc.FilePath(p.TextDocument.URI); err != nil || s.mayRun(path) != nil {
		return hints, nil
	}
	res, path, err := s.resultFor(ctx, p.TextDocument.URI)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return hints, nil
	}
	m := res.analysedMapper(path)
	if m == nil || res.Result == nil {
		return hints, nil
	}
	var missing []*snapshot.Func
	for _, tf := range res.Traced {
		if tf.File != path || tf.SigErr != "" {
			continue
		}
		r, err := s.cachedJaxpr(res, tf)
		if err != nil {
			s.logf("jitls: inlay hints: %v", err)
			return hints, nil
		}
		if r == nil {
			missing = append(missing, tf)
			continue
		}
		if r.Failed() {
			continue
		}
		for _, h := range res.Hints(tf, r) {
			pos := m.Position(h.Off)
			if inRange(pos, p.Range) {
				hints = append(hints, inlayHint{Position: pos, Label: h.Label, Kind: inlayHintType})
			}
		}
	}
	if len(missing) > 0 {
		s.hints.previewInBackground(s, res, missing)
	}
	return hints, nil
}

func inRange(pos protocol.Position, r protocol.Range) bool {
	after := pos.Line > r.Start.Line || pos.Line == r.Start.Line && pos.Character >= r.Start.Character
	before := pos.Line < r.End.Line || pos.Line == r.End.Line && pos.Character <= r.End.Character
	return after && before
}

// hintPreviews runs the previews that inlay hints wait for, one batch per
// package state at a time.
type hintPreviews struct {
	mu      sync.Mutex
	running map[string]bool // build key + function
}

// previewInBackground previews funcs of res and then asks the client to
// refresh its inlay hints.
func (h *hintPreviews) previewInBackground(s *Server, res *pkgResult, funcs []*snapshot.Func) {
	h.mu.Lock()
	if h.running == nil {
		h.running = map[string]bool{}
	}
	var todo []*snapshot.Func
	for _, tf := range funcs {
		k := res.Dir + "\x00" + tf.Name
		if !h.running[k] {
			h.running[k] = true
			todo = append(todo, tf)
		}
	}
	h.mu.Unlock()
	if len(todo) == 0 {
		return
	}
	go func() {
		defer func() {
			h.mu.Lock()
			for _, tf := range todo {
				delete(h.running, res.Dir+"\x00"+tf.Name)
			}
			h.mu.Unlock()
		}()
		for _, tf := range todo {
			if _, err := s.runPreview(context.Background(), res, tf, result.Jaxpr); err != nil {
				s.logf("jitls: preview of %s for inlay hints: %v", tf.Name, err)
			}
		}
		s.refreshInlayHints()
		s.refreshCodeLenses() // a failed preview shows on its lens
	}()
}

// refreshInlayHints asks the client to re-request inlay hints.
func (s *Server) refreshInlayHints() {
	if !s.caps().inlayHintRefresh {
		return
	}
	if err := s.conn.Call(context.Background(), "workspace/inlayHint/refresh", nil, nil); err != nil {
		s.logf("jitls: workspace/inlayHint/refresh: %v", err)
	}
}
