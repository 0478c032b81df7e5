package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// pullReport is a DocumentDiagnosticReport as the client decodes it.
type pullReport struct {
	Kind     string                 `json:"kind"`
	ResultID string                 `json:"resultId"`
	Items    *[]protocol.Diagnostic `json:"items"`
}

func (c *testClient) pull(u, previous string) pullReport {
	c.t.Helper()
	params := map[string]any{"textDocument": map[string]any{"uri": u}}
	if previous != "" {
		params["previousResultId"] = previous
	}
	r := c.request("textDocument/diagnostic", params)
	var rep pullReport
	if r.Error != nil || json.Unmarshal(r.Result, &rep) != nil {
		c.t.Fatalf("textDocument/diagnostic: %+v %s", r.Error, r.Result)
	}
	return rep
}

// TestPullDiagnostics is a client with pull support: it gets the
// diagnostics it asks for (the same as a push would carry), "unchanged"
// when it asks again with the last resultId and nothing changed, a new
// full report after an edit, a refresh request after a settings change,
// and no publishDiagnostics at all.
func TestPullDiagnostics(t *testing.T) {
	dir := sampleModule(t, nil)
	c := startServer(t, Options{Analyzers: boolCallSuite})
	caps := map[string]any{
		"textDocument": map[string]any{
			"diagnostic":         map[string]any{"dynamicRegistration": false},
			"publishDiagnostics": map[string]any{"relatedInformation": true},
		},
		"workspace": map[string]any{"diagnostics": map[string]any{"refreshSupport": true}},
	}
	r := c.request("initialize", map[string]any{"capabilities": caps})
	var init struct {
		Capabilities struct {
			DiagnosticProvider struct {
				InterFileDependencies bool `json:"interFileDependencies"`
			} `json:"diagnosticProvider"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(r.Result, &init); err != nil || !init.Capabilities.DiagnosticProvider.InterFileDependencies {
		t.Fatalf("diagnosticProvider with interFileDependencies not advertised: %s", r.Result)
	}
	c.notify("initialized", map[string]any{})
	u, text := openFile(c, filepath.Join(dir, "relu", "relu.go"))

	first := c.pull(u, "")
	if first.Kind != "full" || first.ResultID == "" || first.Items == nil || len(*first.Items) != 1 || (*first.Items)[0].Code != "boolcall" {
		t.Fatalf("first pull: %+v", first)
	}
	if again := c.pull(u, first.ResultID); again.Kind != "unchanged" || again.ResultID != first.ResultID || again.Items != nil {
		t.Errorf("pull with the current resultId: %+v, want unchanged", again)
	}
	if stale := c.pull(u, "not-a-result-id"); stale.Kind != "full" || len(*stale.Items) != 1 {
		t.Errorf("pull with an unknown resultId: %+v, want the full report", stale)
	}

	// Fix the finding: the next pull (sent right after the change, as
	// clients do) waits for the new analysis and has no items.
	fixed := strings.Replace(text, "x.Gt(0).Bool()", "true", 1)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": u, "version": 2}, "contentChanges": []any{map[string]any{"text": fixed}},
	})
	after := c.pull(u, first.ResultID)
	if after.Kind != "full" || after.Items == nil || len(*after.Items) != 0 || after.ResultID == first.ResultID {
		t.Errorf("pull after the fix: %+v, want a full empty report with a new resultId", after)
	}
	if c.Has(func(m wireMsg) bool { return m.Method == "textDocument/publishDiagnostics" }) {
		t.Errorf("a pull client was sent publishDiagnostics")
	}
	if c.Has(func(m wireMsg) bool { return m.Method == "workspace/diagnostic/refresh" }) {
		t.Errorf("refresh requested after analyses the client caused (it pulls after its edits anyway)")
	}
	// A settings change re-analyses in the background: the server asks the
	// client to pull again.
	c.Clear()
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"jitls": map[string]any{"analyzers": map[string]bool{"boolcall": false}}}})
	c.waitFor("workspace/diagnostic/refresh", func(m wireMsg) bool { return m.Method == "workspace/diagnostic/refresh" })

	// A non-Go or non-file document has an empty full report.
	if rep := c.pull("untitled:Untitled-1", ""); rep.Kind != "full" || rep.Items == nil || len(*rep.Items) != 0 {
		t.Errorf("pull for an untitled document: %+v", rep)
	}
}
