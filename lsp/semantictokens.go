package lsp

import (
	"context"
	"encoding/json"
	"unicode/utf16"

	"go.lsp.dev/protocol"
)

// Semantic tokens mark, in traced functions, every identifier that denotes a
// traced value (modifier "traced", by the traced analyzer's own IsTraced,
// the definition the analyzers use) and every static parameter and
// `jit:"static"` field (modifier "static"), so that an editor can colour an
// `if` on a traced value before any diagnostic. No code runs: no trust is
// needed. Other identifiers get no token (the editor's own highlighting
// stays).

// Token types and modifiers of the legend, in legend order (the types are
// snapshot.TokenKind's).
var (
	semTypes     = []string{"variable", "parameter", "property"}
	semModifiers = []string{"traced", "static"}
)

const (
	modTraced = 1 << iota
	modStatic
)

// semanticTokensProvider is the server capability.
var semanticTokensProvider = map[string]any{
	"legend": map[string]any{"tokenTypes": semTypes, "tokenModifiers": semModifiers},
	"full":   true,
	"range":  true,
}

func (s *Server) semanticTokensFull(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	}
	if err := decodeParams("textDocument/semanticTokens/full", raw, &p); err != nil {
		return nil, err
	}
	return s.semanticTokens(ctx, p.TextDocument.URI, nil)
}

func (s *Server) semanticTokensRange(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
		Range        protocol.Range                  `json:"range"`
	}
	if err := decodeParams("textDocument/semanticTokens/range", raw, &p); err != nil {
		return nil, err
	}
	return s.semanticTokens(ctx, p.TextDocument.URI, &p.Range)
}

// semanticTokens encodes the tokens of a file (within rng when not nil) as
// LSP's relative integer array.
func (s *Server) semanticTokens(ctx context.Context, u protocol.DocumentURI, rng *protocol.Range) (any, error) {
	data := []uint32{}
	res, path, err := s.resultFor(ctx, u)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return map[string]any{"data": data}, nil
	}
	m := res.analysedMapper(path)
	if m == nil || res.Result == nil {
		return map[string]any{"data": data}, nil
	}
	content := res.Parsed.Contents[path]
	var prev protocol.Position
	for _, t := range res.Tokens(path) {
		pos := m.Position(t.Start)
		if rng != nil && !inRange(pos, *rng) {
			continue
		}
		dl, dc := pos.Line-prev.Line, pos.Character
		if dl == 0 {
			dc -= prev.Character
		}
		mods := modTraced
		if t.Static {
			mods = modStatic
		}
		n := len(utf16.Encode([]rune(string(content[t.Start:t.End]))))
		data = append(data, dl, dc, uint32(n), uint32(t.Kind), uint32(mods))
		prev = pos
	}
	return map[string]any{"data": data}, nil
}
