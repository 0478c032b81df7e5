package lsp

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/richtext"
)

// TestPlaintextClientGetsNoMarkdown is eglot without markdown-mode: it
// announces hover.contentFormat ["plaintext"], and every hover (a jaxpr, a
// tracing failure, the untrusted-workspace help) must then be free of
// Markdown syntax.
func TestPlaintextClientGetsNoMarkdown(t *testing.T) {
	dir := sampleModule(t, map[string]string{"relu/transform.go": "package relu\n\nimport \"github.com/jitlint/jitlint/jit\"\n\n// Batched maps ReluWhere over a batch.\nfunc Batched(x jit.Array) jit.Array { return jit.Vmap(ReluWhere)(x) }\n"})
	for _, trusted := range []bool{true, false} {
		c := startServer(t, Options{})
		c.initializeIn(dir, map[string]any{
			"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"plaintext"}}},
		}, map[string]any{"allowCodeExecution": trusted})
		u, text := openFile(c, filepath.Join(dir, "relu", "relu.go"))
		u2, text2 := openFile(c, filepath.Join(dir, "relu", "transform.go"))
		targets := []struct{ uri, text, at string }{{u, text, "func ReluWhere"}, {u, text, "func ReluBad"}, {u, text, "jit.Jit(Power"}, {u2, text2, "jit.Vmap(ReluWhere"}}
		for _, tg := range targets {
			u, text, at := tg.uri, tg.text, tg.at
			r := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": position(t, text, at, 6)})
			var h protocol.Hover
			if r.Error != nil || json.Unmarshal(r.Result, &h) != nil {
				t.Fatalf("hover on %q: %+v %s", at, r.Error, r.Result)
			}
			if h.Contents.Kind != protocol.PlainText {
				t.Errorf("hover on %q: kind %q, want plaintext", at, h.Contents.Kind)
			}
			for _, md := range []string{"**", "`", "```", "\\_", "\\*"} {
				if strings.Contains(h.Contents.Value, md) {
					t.Errorf("trusted=%v: plaintext hover on %q contains Markdown %q:\n%s", trusted, at, md, h.Contents.Value)
				}
			}
			if trusted && at == "func ReluWhere" && !strings.Contains(h.Contents.Value, "Input signature: f32[5]\n\n    { lambda ; a:f32[5]. let") {
				t.Errorf("plaintext hover on ReluWhere should show the signature and an indented jaxpr:\n%s", h.Contents.Value)
			}
			if trusted && at == "jit.Vmap(ReluWhere" && !strings.Contains(h.Contents.Value, "{ lambda ; a:f32[4,5]. let") {
				t.Errorf("plaintext hover on a Vmap call should show the batched jaxpr:\n%s", h.Contents.Value)
			}
		}
	}
}

// TestMinimalClient is a client that announces nothing optional: related
// information is folded into the message (one line each, file:line), no
// codeDescription or version is sent, and quick fixes come as commands
// that the server applies through workspace/applyEdit.
func TestMinimalClient(t *testing.T) {
	dir := sampleModule(t, nil)
	c := startServer(t, Options{Analyzers: boolCallSuite})
	c.initializeAs(map[string]any{}, nil)
	u, text := openFile(c, filepath.Join(dir, "relu", "relu.go"))
	m := c.waitFor("diagnostics", func(m wireMsg) bool {
		return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), "boolcall")
	})
	var p struct {
		Version     *int                  `json:"version"`
		Diagnostics []protocol.Diagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal(m.Params, &p); err != nil || len(p.Diagnostics) != 1 {
		t.Fatalf("diagnostics: %s (%v)", m.Params, err)
	}
	d := p.Diagnostics[0]
	pkgLine := strings.Count(text[:strings.Index(text, "package relu")], "\n") + 1
	want := "Bool converts a traced value\nrelu.go:" + strconv.Itoa(pkgLine) + ": in this package"
	if d.Message != want || d.RelatedInformation != nil || d.CodeDescription != nil || p.Version != nil {
		t.Errorf("minimal client got %s\nwant message %q without relatedInformation, codeDescription and version", m.Params, want)
	}

	c.ReplyTo("workspace/applyEdit", `{"applied":true}`)
	r := c.request("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u}, "range": d.Range, "context": map[string]any{"diagnostics": []any{d}},
	})
	var cmds []protocol.Command
	if err := json.Unmarshal(r.Result, &cmds); err != nil || len(cmds) != 2 || cmds[0].Command != CommandApplyFix {
		t.Fatalf("codeAction for a client without literals: %s (%v)", r.Result, err)
	}
	r = c.request("workspace/executeCommand", map[string]any{"command": cmds[0].Command, "arguments": cmds[0].Arguments})
	if r.Error != nil {
		t.Fatalf("%s: %+v", CommandApplyFix, r.Error)
	}
	apply := c.waitFor("workspace/applyEdit", func(m wireMsg) bool { return m.Method == "workspace/applyEdit" })
	var ap struct {
		Edit struct {
			Changes map[string][]protocol.TextEdit `json:"changes"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(apply.Params, &ap); err != nil || len(ap.Edit.Changes[u]) != 1 || ap.Edit.Changes[u][0].NewText != "true" {
		t.Errorf("workspace/applyEdit params: %s (%v)", apply.Params, err)
	}
}

// TestVersionedEditsAndPreferred is a client with documentChanges and
// isPreferred support: the fix names the document version it was
// computed for.
func TestVersionedEditsAndPreferred(t *testing.T) {
	dir := sampleModule(t, nil)
	c := startServer(t, Options{Analyzers: boolCallSuite})
	caps := map[string]any{
		"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}},
		"textDocument": map[string]any{"codeAction": map[string]any{
			"isPreferredSupport": true, "codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"quickfix"}}},
		}},
	}
	c.initializeAs(caps, nil)
	u, _ := openFile(c, filepath.Join(dir, "relu", "relu.go"))
	d := c.diagsFor(u, "boolcall diagnostic", func(d []protocol.Diagnostic) bool { return len(d) == 1 })[0]
	r := c.request("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u}, "range": d.Range, "context": map[string]any{"diagnostics": []any{d}},
	})
	var actions []struct {
		IsPreferred bool `json:"isPreferred"`
		Edit        struct {
			Changes         json.RawMessage `json:"changes"`
			DocumentChanges []struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version *int   `json:"version"`
				} `json:"textDocument"`
				Edits []protocol.TextEdit `json:"edits"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(r.Result, &actions); err != nil || len(actions) != 2 || actions[1].IsPreferred {
		t.Fatalf("codeAction (the analyzer's fix, preferred, and the ignore fix): %s (%v)", r.Result, err)
	}
	a := actions[0]
	if !a.IsPreferred || a.Edit.Changes != nil || len(a.Edit.DocumentChanges) != 1 {
		t.Fatalf("code action for a documentChanges client: %s", r.Result)
	}
	dc := a.Edit.DocumentChanges[0]
	if dc.TextDocument.URI != u || dc.TextDocument.Version == nil || *dc.TextDocument.Version != 1 || len(dc.Edits) != 1 || dc.Edits[0].NewText != "true" {
		t.Errorf("documentChanges: %s", r.Result)
	}
}

func TestMarkupRendering(t *testing.T) {
	m := new(richtext.Text).Strong("F_1").Prose(" has *stars* and `ticks`").Para().Prose("sig ").Code("a`b").Block("x\ny\n")
	if got, want := m.Markdown(), "**F\\_1** has \\*stars\\* and \\`ticks\\`\n\nsig ``a`b``\n\n```text\nx\ny\n```\n"; got != want {
		t.Errorf("markdown:\n%q\nwant\n%q", got, want)
	}
	if got, want := m.Plaintext(), "F_1 has *stars* and `ticks`\n\nsig a`b\n\n    x\n    y\n"; got != want {
		t.Errorf("plaintext:\n%q\nwant\n%q", got, want)
	}
}
