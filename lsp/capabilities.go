package lsp

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/richtext"
	"github.com/jitlint/jitlint/internal/textdoc"
)

// clientCaps is what the client announced in initialize, reduced to the
// decisions the server makes from it. It is the one place that reads the
// client's capabilities: features ask it how to shape what they send
// (markup, diagnostics, edits, progress) instead of checking the
// capabilities themselves. The zero value is the most conservative client
// LSP allows (plaintext only, no optional fields, push diagnostics).
type clientCaps struct {
	// markdown: hover (and any other markup) may be Markdown; otherwise
	// it is plaintext without any Markdown syntax.
	markdown bool
	// relatedInfo: diagnostics may carry relatedInformation; otherwise it
	// is folded into the message, one "file:line: message" line each.
	relatedInfo bool
	// codeDescription: diagnostics may carry codeDescription (a docs link).
	codeDescription bool
	// diagnosticVersions: publishDiagnostics may carry the document version.
	diagnosticVersions bool
	// tags: the diagnostic tags the client understands.
	tags []protocol.DiagnosticTag
	// pullDiagnostics: the client asks for diagnostics with
	// textDocument/diagnostic, so the server does not push them.
	pullDiagnostics bool
	// diagnosticRefresh: the client accepts workspace/diagnostic/refresh.
	diagnosticRefresh bool
	// codeActionLiterals: code actions may be CodeAction literals (with
	// edits); otherwise they are Commands the server carries out.
	codeActionLiterals bool
	// preferredActions: CodeAction.isPreferred is understood.
	preferredActions bool
	// documentChanges: workspace edits may be versioned documentChanges,
	// which the client rejects when the document moved on.
	documentChanges bool
	// snippetEdits: workspace edits may contain snippet text edits
	// (LSP 3.18 SnippetTextEdit), for placeholders the user fills in.
	snippetEdits bool
	// workDoneProgress: the server may create $/progress tokens.
	workDoneProgress bool
	// codeLensRefresh: the client accepts workspace/codeLens/refresh.
	codeLensRefresh bool
	// inlayHintRefresh: the client accepts workspace/inlayHint/refresh.
	inlayHintRefresh bool
}

// wireClientCaps is the part of ClientCapabilities the server reads.
// Decoding only this keeps unknown or newer fields from ever being a problem.
type wireClientCaps struct {
	TextDocument struct {
		Hover *struct {
			ContentFormat []string `json:"contentFormat"`
		} `json:"hover"`
		PublishDiagnostics struct {
			RelatedInformation     bool `json:"relatedInformation"`
			VersionSupport         bool `json:"versionSupport"`
			CodeDescriptionSupport bool `json:"codeDescriptionSupport"`
			TagSupport             *struct {
				ValueSet []protocol.DiagnosticTag `json:"valueSet"`
			} `json:"tagSupport"`
		} `json:"publishDiagnostics"`
		Diagnostic *json.RawMessage `json:"diagnostic"`
		CodeAction struct {
			CodeActionLiteralSupport *json.RawMessage `json:"codeActionLiteralSupport"`
			IsPreferredSupport       bool             `json:"isPreferredSupport"`
		} `json:"codeAction"`
	} `json:"textDocument"`
	Window struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
	} `json:"window"`
	Workspace struct {
		CodeLens struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"codeLens"`
		InlayHint struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"inlayHint"`
		Diagnostics struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"diagnostics"`
		WorkspaceEdit struct {
			DocumentChanges    bool `json:"documentChanges"`
			SnippetEditSupport bool `json:"snippetEditSupport"`
		} `json:"workspaceEdit"`
	} `json:"workspace"`
}

// parseClientCaps decodes initialize's capabilities (absent or null: the
// zero clientCaps).
func parseClientCaps(raw json.RawMessage) (clientCaps, error) {
	var w wireClientCaps
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &w); err != nil {
			return clientCaps{}, fmt.Errorf("initialize: capabilities: %v", err)
		}
	}
	td, ws := w.TextDocument, w.Workspace
	c := clientCaps{
		relatedInfo:        td.PublishDiagnostics.RelatedInformation,
		codeDescription:    td.PublishDiagnostics.CodeDescriptionSupport,
		diagnosticVersions: td.PublishDiagnostics.VersionSupport,
		pullDiagnostics:    td.Diagnostic != nil && string(*td.Diagnostic) != "null",
		diagnosticRefresh:  ws.Diagnostics.RefreshSupport,
		codeActionLiterals: td.CodeAction.CodeActionLiteralSupport != nil && string(*td.CodeAction.CodeActionLiteralSupport) != "null",
		preferredActions:   td.CodeAction.IsPreferredSupport,
		documentChanges:    ws.WorkspaceEdit.DocumentChanges,
		snippetEdits:       ws.WorkspaceEdit.SnippetEditSupport,
		workDoneProgress:   w.Window.WorkDoneProgress,
		codeLensRefresh:    ws.CodeLens.RefreshSupport,
		inlayHintRefresh:   ws.InlayHint.RefreshSupport,
	}
	if td.PublishDiagnostics.TagSupport != nil {
		c.tags = td.PublishDiagnostics.TagSupport.ValueSet
	}
	// The first format of contentFormat that jitls can produce wins; a
	// client that says nothing gets plaintext, which every client shows.
	if td.Hover != nil {
		for _, f := range td.Hover.ContentFormat {
			if f == string(protocol.Markdown) || f == string(protocol.PlainText) {
				c.markdown = f == string(protocol.Markdown)
				break
			}
		}
	}
	return c, nil
}

// caps returns the client's capabilities.
func (s *Server) caps() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clientCaps
}

// markup renders m in the client's preferred format.
func (c clientCaps) markup(m *richtext.Text) protocol.MarkupContent {
	if c.markdown {
		return protocol.MarkupContent{Kind: protocol.Markdown, Value: m.Markdown()}
	}
	return protocol.MarkupContent{Kind: protocol.PlainText, Value: m.Plaintext()}
}

// diagnostic shapes d for the client: optional fields it did not announce
// are left out, and related information it cannot show is folded into the
// message, one line each, with file:line relative to the diagnostic's file.
func (c clientCaps) diagnostic(d protocol.Diagnostic, file string) protocol.Diagnostic {
	if !c.codeDescription {
		d.CodeDescription = nil
	}
	d.Tags = slices.DeleteFunc(slices.Clone(d.Tags), func(t protocol.DiagnosticTag) bool { return !slices.Contains(c.tags, t) })
	if len(d.Tags) == 0 {
		d.Tags = nil
	}
	if !c.relatedInfo && len(d.RelatedInformation) > 0 {
		var b strings.Builder
		b.WriteString(d.Message)
		for _, r := range d.RelatedInformation {
			fmt.Fprintf(&b, "\n%s: %s", relatedWhere(r.Location, filepath.Dir(file)), r.Message)
		}
		d.Message = b.String()
		d.RelatedInformation = nil
	}
	return d
}

// diagnostics shapes a file's stored diagnostics for the client ([] rather
// than nil, which clears).
func (c clientCaps) diagnostics(u protocol.DocumentURI, list []storedDiag) []protocol.Diagnostic {
	path, _ := textdoc.FilePath(u)
	out := make([]protocol.Diagnostic, 0, len(list))
	for _, sd := range list {
		out = append(out, c.diagnostic(sd.diag, path))
	}
	return out
}

// relatedWhere formats a location as file:line, the file relative to dir
// when it is inside it.
func relatedWhere(loc protocol.Location, dir string) string {
	path, err := textdoc.FilePath(loc.URI)
	if err != nil {
		return fmt.Sprintf("%s:%d", loc.URI, loc.Range.Start.Line+1)
	}
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		path = rel
	}
	return fmt.Sprintf("%s:%d", path, loc.Range.Start.Line+1)
}

// publishVersion returns the version to put in publishDiagnostics (0,
// which is omitted, when the client does not support versions).
func (c clientCaps) publishVersion(version int32) uint32 {
	if !c.diagnosticVersions || version < 0 {
		return 0
	}
	return uint32(version)
}

// workspaceEdit is the wire form of a WorkspaceEdit: changes, or
// documentChanges (with the document versions the edits were computed
// for, so that the client refuses them on a newer text) when supported.
type workspaceEdit struct {
	Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes,omitempty"`
	DocumentChanges []documentEdit                               `json:"documentChanges,omitempty"`
}

// documentEdit is a TextDocumentEdit whose edits may be snippet edits.
type documentEdit struct {
	TextDocument protocol.OptionalVersionedTextDocumentIdentifier `json:"textDocument"`
	Edits        []any                                            `json:"edits"`
}

// snippetTextEdit is LSP 3.18's SnippetTextEdit.
type snippetTextEdit struct {
	Range   protocol.Range `json:"range"`
	Snippet struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	} `json:"snippet"`
}

// workspaceEdit shapes a quick fix's edits for the client; version gives
// the document version the edits of a file were computed for (-1: the
// file on disk).
func (c clientCaps) workspaceEdit(edits map[protocol.DocumentURI][]fixEdit, version func(protocol.DocumentURI) int32) *workspaceEdit {
	we := &workspaceEdit{}
	if !c.documentChanges {
		we.Changes = map[protocol.DocumentURI][]protocol.TextEdit{}
		for u, list := range edits {
			for _, e := range list {
				we.Changes[u] = append(we.Changes[u], e.TextEdit)
			}
		}
		return we
	}
	uris := slices.Sorted(maps.Keys(edits))
	for _, u := range uris {
		de := documentEdit{TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}}
		if v := version(u); v >= 0 {
			de.TextDocument.Version = &v
		}
		for _, e := range edits[u] {
			if e.snippet != "" && c.snippetEdits {
				se := snippetTextEdit{Range: e.Range}
				se.Snippet.Kind, se.Snippet.Value = "snippet", e.snippet
				de.Edits = append(de.Edits, se)
			} else {
				de.Edits = append(de.Edits, e.TextEdit)
			}
		}
		we.DocumentChanges = append(we.DocumentChanges, de)
	}
	return we
}
