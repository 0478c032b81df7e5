package lsp

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers"
	"github.com/jitlint/jitlint/internal/textdoc"
)

// jitlintSuite is the real analyzer suite (what cmd/jitls runs).
func jitlintSuite(s Settings) []*analysis.Analyzer {
	return analyzers.Suite(analyzers.Config{Enabled: s.Analyzers})
}

// TestIgnoreQuickFixAndSuppression: every jitlint finding has a quick fix
// that inserts //jitlint:ignore above it (a snippet with a placeholder for
// the reason when the client takes snippet edits), and the editor honours
// the directive once the reason is written: the finding goes away.
func TestIgnoreQuickFixAndSuppression(t *testing.T) {
	dir := sampleModule(t, nil)
	c := startServer(t, Options{Analyzers: jitlintSuite})
	c.initializeAs(map[string]any{
		"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true, "snippetEditSupport": true}},
		"textDocument": map[string]any{
			"publishDiagnostics": map[string]any{"versionSupport": true},
			"codeAction":         map[string]any{"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"quickfix"}}}},
		},
	}, nil)
	u, text := openFile(c, filepath.Join(dir, "relu", "relu.go"))
	isBool := func(d protocol.Diagnostic) bool { return d.Code == "tracedbool" }
	var d protocol.Diagnostic
	c.diagsFor(u, "the tracedbool finding on ReluBad", func(ds []protocol.Diagnostic) bool {
		for _, x := range ds {
			if isBool(x) {
				d = x
				return true
			}
		}
		return false
	})
	r := c.request("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u}, "range": d.Range, "context": map[string]any{"diagnostics": []any{d}},
	})
	var actions []struct {
		Title string `json:"title"`
		Edit  struct {
			DocumentChanges []struct {
				Edits []json.RawMessage `json:"edits"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(r.Result, &actions); err != nil || len(actions) == 0 {
		t.Fatalf("codeAction: %s (%v)", r.Result, err)
	}
	ignore := actions[len(actions)-1]
	if ignore.Title != "Ignore this tracedbool finding (//jitlint:ignore)" || len(ignore.Edit.DocumentChanges) != 1 || len(ignore.Edit.DocumentChanges[0].Edits) != 1 {
		t.Fatalf("no ignore quick fix last in %s", r.Result)
	}
	var edit snippetTextEdit
	if err := json.Unmarshal(ignore.Edit.DocumentChanges[0].Edits[0], &edit); err != nil || edit.Snippet.Kind != "snippet" ||
		edit.Snippet.Value != "\t//jitlint:ignore tracedbool ${1:reason}\n" || edit.Range.Start != edit.Range.End || edit.Range.Start.Line != d.Range.Start.Line || edit.Range.Start.Character != 0 {
		t.Fatalf("ignore fix edit: %s", ignore.Edit.DocumentChanges[0].Edits[0])
	}

	// The user fills in the reason: the finding is suppressed in the editor.
	m := textdoc.NewMapper([]byte(text))
	off, _ := m.Offset(edit.Range.Start)
	suppressed := text[:off] + "\t//jitlint:ignore tracedbool the sample keeps its bad branch on purpose\n" + text[off:]
	c.Clear()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": u, "version": 2}, "contentChanges": []any{map[string]any{"text": suppressed}},
	})
	c.waitFor("diagnostics of version 2 without the tracedbool finding", func(m wireMsg) bool {
		var p struct {
			Version     int                   `json:"version"`
			Diagnostics []protocol.Diagnostic `json:"diagnostics"`
		}
		if m.Method != "textDocument/publishDiagnostics" || json.Unmarshal(m.Params, &p) != nil || p.Version != 2 {
			return false
		}
		for _, x := range p.Diagnostics {
			if isBool(x) {
				t.Errorf("still reported after //jitlint:ignore: %+v", x)
			}
		}
		return true
	})
}
