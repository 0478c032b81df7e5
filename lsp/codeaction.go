package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"

	"go.lsp.dev/protocol"
)

// codeAction offers the analyzers' suggested fixes for diagnostics that
// overlap the requested range, as quick fixes. Fixes computed for an older
// version of the document are not offered (their edits would be wrong).
func (s *Server) codeAction(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.CodeActionParams
	if err := decodeParams("textDocument/codeAction", raw, &p); err != nil {
		return nil, err
	}
	actions := []protocol.CodeAction{}
	path, err := filePath(p.TextDocument.URI)
	if err != nil {
		return actions, nil
	}
	res, err := s.diags.waitResult(ctx, filepath.Dir(path))
	if err != nil || res.pp == nil {
		return actions, nil
	}
	doc := s.openDoc(p.TextDocument.URI)
	for _, sd := range res.diags[p.TextDocument.URI] {
		if doc != nil && sd.version != doc.version {
			s.logf("jitls: codeAction: diagnostics are for version %d of %s, the document is at %d", sd.version, p.TextDocument.URI, doc.version)
			continue
		}
		if !overlaps(sd.diag.Range, p.Range) && !mentioned(sd.diag, p.Context.Diagnostics) {
			continue
		}
		for _, fix := range sd.fixes {
			actions = append(actions, protocol.CodeAction{
				Title:       fix.title,
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{sd.diag},
				IsPreferred: len(sd.fixes) == 1,
				Edit:        &protocol.WorkspaceEdit{Changes: fix.edits},
			})
		}
	}
	return actions, nil
}

// overlaps reports whether two ranges share a position (touching counts,
// so a cursor at either end of a diagnostic gets its fixes).
func overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func before(x, y protocol.Position) bool {
	return x.Line < y.Line || x.Line == y.Line && x.Character < y.Character
}

// mentioned reports whether the client's context lists d (same message and
// range), which some clients send with a request range that does not
// cover it.
func mentioned(d protocol.Diagnostic, ctx []protocol.Diagnostic) bool {
	for _, c := range ctx {
		if c.Message == d.Message && c.Range == d.Range {
			return true
		}
	}
	return false
}
