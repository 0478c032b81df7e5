package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/textdoc"
)

// codeAction offers the analyzers' suggested fixes for diagnostics that
// overlap the requested range, as quick fixes. Fixes computed for an older
// version of the document are not offered (their edits would be wrong).
// Clients without CodeAction literals get Commands (jitls.applyFix) that
// make the server apply the edit through workspace/applyEdit.
func (s *Server) codeAction(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.CodeActionParams
	if err := decodeParams("textDocument/codeAction", raw, &p); err != nil {
		return nil, err
	}
	actions := []codeAction{}
	path, err := textdoc.FilePath(p.TextDocument.URI)
	if err != nil {
		return actions, nil
	}
	res, err := s.waitResult(ctx, filepath.Dir(path))
	if err != nil || res.Parsed == nil {
		return actions, nil
	}
	doc := s.openDoc(p.TextDocument.URI)
	caps := s.caps()
	for _, sd := range res.diags[p.TextDocument.URI] {
		diag := caps.diagnostic(sd.diag, path)
		if doc != nil && sd.version != doc.version {
			s.logf("jitls: codeAction: diagnostics are for version %d of %s, the document is at %d", sd.version, p.TextDocument.URI, doc.version)
			continue
		}
		if !overlaps(diag.Range, p.Range) && !mentioned(diag, p.Context.Diagnostics) {
			continue
		}
		for _, fix := range sd.fixes {
			actions = append(actions, codeAction{
				Title:       fix.title,
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{diag},
				IsPreferred: fix.preferred && caps.preferredActions,
				Edit:        caps.workspaceEdit(fix.edits, res.versionOf),
			})
		}
	}
	if !caps.codeActionLiterals {
		cmds := []protocol.Command{}
		for _, a := range actions {
			cmds = append(cmds, protocol.Command{Title: a.Title, Command: CommandApplyFix, Arguments: []any{a.Edit}})
		}
		return cmds, nil
	}
	return actions, nil
}

// codeAction is the wire form of a CodeAction (its edit shaped by
// clientCaps.workspaceEdit).
type codeAction struct {
	Title       string                  `json:"title"`
	Kind        protocol.CodeActionKind `json:"kind,omitempty"`
	Diagnostics []protocol.Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool                    `json:"isPreferred,omitempty"`
	Edit        *workspaceEdit          `json:"edit,omitempty"`
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
