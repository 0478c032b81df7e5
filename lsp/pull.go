package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/textdoc"
)

// Pull diagnostics (LSP 3.17 textDocument/diagnostic). A client that
// announces textDocument.diagnostic asks for a document's diagnostics when
// it wants them (after opening or changing any document, since the server
// declares interFileDependencies) and is not sent publishDiagnostics; the
// answer is the same list a push would carry. Each answer has a resultId,
// a digest of the list, so that a client asking again with that id while
// nothing changed gets "unchanged" instead of the list.

// diagnosticProvider is the server capability for pull diagnostics.
var diagnosticProvider = map[string]any{
	"identifier":            "jitls",
	"interFileDependencies": true,
	"workspaceDiagnostics":  false,
}

// documentDiagnosticReport is a full or unchanged DocumentDiagnosticReport.
type documentDiagnosticReport struct {
	Kind     string                 `json:"kind"` // "full" or "unchanged"
	ResultID string                 `json:"resultId"`
	Items    *[]protocol.Diagnostic `json:"items,omitempty"` // full reports only
}

func (s *Server) pullDiagnostics(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument     protocol.TextDocumentIdentifier `json:"textDocument"`
		PreviousResultID string                          `json:"previousResultId"`
	}
	if err := decodeParams("textDocument/diagnostic", raw, &p); err != nil {
		return nil, err
	}
	list := uriProblem(p.TextDocument.URI, -1)
	if path, err := textdoc.FilePath(p.TextDocument.URI); err == nil && strings.HasSuffix(path, ".go") {
		res, err := s.waitResult(ctx, filepath.Dir(path))
		if err != nil {
			return nil, err // cancelled: the reply becomes RequestCancelled
		}
		list = res.diags[p.TextDocument.URI]
	}
	items := s.caps().diagnostics(p.TextDocument.URI, list)
	b, _ := json.Marshal(items)
	sum := sha256.Sum256(b)
	id := hex.EncodeToString(sum[:12])
	if p.PreviousResultID == id {
		return &documentDiagnosticReport{Kind: "unchanged", ResultID: id}, nil
	}
	return &documentDiagnosticReport{Kind: "full", ResultID: id, Items: &items}, nil
}

// refreshDiagnostics asks a pull client to pull again (after an analysis
// that the client's own edits and requests did not start, such as a
// dependency saved on disk or a settings change, may have changed the
// results; see diagnoser.scheduleBackground).
func (s *Server) refreshDiagnostics() {
	if !s.caps().diagnosticRefresh {
		return
	}
	go func() {
		if err := s.conn.Call(context.Background(), "workspace/diagnostic/refresh", nil, nil); err != nil {
			s.logf("jitls: workspace/diagnostic/refresh: %v", err)
		}
	}()
}
