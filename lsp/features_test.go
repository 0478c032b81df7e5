package lsp

import (
	"encoding/json"
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/jitlint/jitlint/internal/textdoc"
)

// boolCall is a small stand-in analyzer: it reports every x.Bool() call,
// with a fix that replaces it by true and related information at the
// enclosing file's package clause.
var boolCall = &analysis.Analyzer{
	Name:     "boolcall",
	Doc:      "report Bool calls",
	URL:      "https://example.com/boolcall",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		ins.Preorder([]ast.Node{(*ast.File)(nil), (*ast.CallExpr)(nil)}, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Bool" {
				return
			}
			file := pass.Files[0]
			pass.Report(analysis.Diagnostic{
				Pos: call.Pos(), End: call.End(), Message: "Bool converts a traced value",
				Related:        []analysis.RelatedInformation{{Pos: file.Name.Pos(), End: file.Name.End(), Message: "in this package"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: "use true", TextEdits: []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: []byte("true")}}}},
			})
		})
		return nil, nil
	},
}

func boolCallSuite(s Settings) []*analysis.Analyzer {
	if on, ok := s.Analyzers["boolcall"]; ok && !on {
		return nil
	}
	return []*analysis.Analyzer{boolCall}
}

// position returns the LSP position of the first occurrence of sub in text
// (plus delta bytes).
func position(t *testing.T, text, sub string, delta int) protocol.Position {
	t.Helper()
	i := strings.Index(text, sub)
	if i < 0 {
		t.Fatalf("%q not found", sub)
	}
	return textdoc.NewMapper([]byte(text)).Position(i + delta)
}

// diagsFor waits for a publishDiagnostics for u satisfying pred.
func (c *testClient) diagsFor(u string, what string, pred func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	c.t.Helper()
	var got []protocol.Diagnostic
	c.waitFor(what, func(m wireMsg) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p struct {
			URI         string                `json:"uri"`
			Diagnostics []protocol.Diagnostic `json:"diagnostics"`
		}
		if json.Unmarshal(m.Params, &p) != nil || p.URI != u {
			return false
		}
		if strings.Contains(string(m.Params), `"diagnostics":null`) {
			c.t.Errorf("diagnostics sent as null: %s", m.Params)
		}
		if pred(p.Diagnostics) {
			got = p.Diagnostics
			return true
		}
		return false
	})
	return got
}

// hoverAt returns the hover text at the first occurrence of sub in text
// (plus delta bytes) of document u, "" when the server has none.
func (c *testClient) hoverAt(u, text, sub string, delta int) string {
	c.t.Helper()
	r := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": position(c.t, text, sub, delta)})
	if r.Error != nil {
		c.t.Fatalf("hover on %q: %+v", sub, r.Error)
	}
	if string(r.Result) == "null" {
		return ""
	}
	var h protocol.Hover
	if err := json.Unmarshal(r.Result, &h); err != nil {
		c.t.Fatalf("hover on %q: %v: %s", sub, err, r.Result)
	}
	return h.Contents.Value
}

func openFile(c *testClient, path string) (string, string) {
	b, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	u := string(textdoc.FileURI(path))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "go", "version": 1, "text": string(b)}})
	return u, string(b)
}

func TestDiagnosticsFixesAndIncrementalSync(t *testing.T) {
	dir := sampleModule(t, nil)
	before := treeDigest(t, dir)
	c := startServer(t, Options{Analyzers: boolCallSuite})
	c.initialize(map[string]any{})
	path := filepath.Join(dir, "relu", "relu.go")
	u, text := openFile(c, path)
	diags := c.diagsFor(u, "boolcall diagnostic", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
	d := diags[0]
	if d.Source != "jitls" || d.Code != "boolcall" || d.CodeDescription == nil || d.CodeDescription.Href != "https://example.com/boolcall" {
		t.Errorf("diagnostic metadata: %+v", d)
	}
	if want := position(t, text, "x.Gt(0).Bool()", 0); d.Range.Start != want {
		t.Errorf("diagnostic at %v, want %v", d.Range.Start, want)
	}
	if len(d.RelatedInformation) != 1 || d.RelatedInformation[0].Message != "in this package" {
		t.Errorf("related information: %+v", d.RelatedInformation)
	}

	r := c.request("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u}, "range": d.Range, "context": map[string]any{"diagnostics": []any{d}},
	})
	var actions []protocol.CodeAction
	if err := json.Unmarshal(r.Result, &actions); err != nil || len(actions) != 2 || !strings.Contains(actions[1].Title, "//jitlint:ignore") {
		t.Fatalf("codeAction: %s (%v)", r.Result, err)
	}
	edits := actions[0].Edit.Changes[protocol.DocumentURI(u)]
	if actions[0].Kind != protocol.QuickFix || len(edits) != 1 || edits[0].NewText != "true" || edits[0].Range != d.Range {
		t.Errorf("quick fix: %+v", actions[0])
	}

	// Apply the fix as an incremental change: the diagnostic goes away and
	// the clearing is sent as [] (not null).
	c.Clear()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{"range": d.Range, "text": "true"}},
	})
	c.diagsFor(u, "cleared diagnostics", func(d []protocol.Diagnostic) bool { return len(d) == 0 })

	// A full-text change brings it back; then the analyzer is switched off
	// through didChangeConfiguration.
	c.Clear()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": 3},
		"contentChanges": []any{map[string]any{"text": text}},
	})
	c.diagsFor(u, "diagnostic after full change", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
	c.Clear()
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"jitls": map[string]any{"analyzers": map[string]bool{"boolcall": false}}}})
	c.diagsFor(u, "diagnostics cleared by configuration", func(d []protocol.Diagnostic) bool { return len(d) == 0 })

	c.request("shutdown", nil)
	c.notify("exit", nil)
	c.exitCode()
	if after := treeDigest(t, dir); after != before {
		t.Errorf("the workspace changed during the session")
	}
}

func TestDirectiveDiagnostics(t *testing.T) {
	dir := sampleModule(t, map[string]string{"relu/bad.go": `package relu

import "github.com/jitlint/jitlint/jit"

//jit:args f32[4,
func Broken(x jit.Array) jit.Array { return x }

//jit:args f32[4], f32[4]
func TooMany(x jit.Array) jit.Array { return x }

//jit:args f32[4]
func Static(n int) int { return n }
`})
	c := startServer(t, Options{})
	c.initialize(nil)
	u, _ := openFile(c, filepath.Join(dir, "relu", "bad.go"))
	diags := c.diagsFor(u, "three directive diagnostics", func(d []protocol.Diagnostic) bool { return len(d) == 3 })
	var msgs []string
	for _, d := range diags {
		if d.Code != "jitargs" || d.Severity != protocol.DiagnosticSeverityError {
			t.Errorf("directive diagnostic metadata: %+v", d)
		}
		msgs = append(msgs, d.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"malformed //jit:args directive", "gives 2 argument(s) but TooMany has 1", "is an array but the parameter has type int"} {
		if !strings.Contains(all, want) {
			t.Errorf("no diagnostic containing %q in:\n%s", want, all)
		}
	}
}

func TestUntrustedWorkspaceRunsNothing(t *testing.T) {
	dir := sampleModule(t, nil)
	c := startServer(t, Options{})
	c.initialize(map[string]any{"allowCodeExecution": false})
	path := filepath.Join(dir, "relu", "relu.go")
	u, text := openFile(c, path)
	r := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": position(t, text, "func ReluWhere", 6)})
	var h protocol.Hover
	if err := json.Unmarshal(r.Result, &h); err != nil || !strings.Contains(h.Contents.Value, "allowCodeExecution") {
		t.Errorf("untrusted hover should say how to enable previews: %s", r.Result)
	}
	// Trust cannot be granted through configuration.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"jitls": map[string]any{"allowCodeExecution": true}}})
	r = c.request("workspace/executeCommand", map[string]any{"command": CommandShowJaxpr, "arguments": []any{map[string]any{"uri": u, "function": "ReluWhere"}}})
	if r.Error == nil || !strings.Contains(r.Error.Message, "allowCodeExecution") {
		t.Errorf("untrusted command should fail saying how to enable it: %+v %s", r.Error, r.Result)
	}
	r = c.request("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}})
	var lenses []protocol.CodeLens
	if err := json.Unmarshal(r.Result, &lenses); err != nil || len(lenses) != 6 {
		t.Errorf("code lenses: %s", r.Result)
	}
}

func TestPanickingAnalyzerDoesNotKillTheServer(t *testing.T) {
	dir := sampleModule(t, nil)
	panicky := &analysis.Analyzer{Name: "panicky", Doc: "panics", Run: func(*analysis.Pass) (any, error) { panic("analyzer bug") }}
	c := startServer(t, Options{Analyzers: func(Settings) []*analysis.Analyzer { return []*analysis.Analyzer{panicky, boolCall} }})
	c.initialize(nil)
	u, _ := openFile(c, filepath.Join(dir, "relu", "relu.go"))
	c.waitFor("a log of the analyzer panic", func(m wireMsg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "analyzer bug")
	})
	c.diagsFor(u, "a publish after the failed analysis", func([]protocol.Diagnostic) bool { return true })
	if r := c.request("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}); r.Error != nil {
		t.Errorf("server unusable after an analyzer panic: %+v", r.Error)
	}
}

func TestImportChangesReloadDependencies(t *testing.T) {
	dir := sampleModule(t, nil)
	c := startServer(t, Options{Analyzers: boolCallSuite})
	c.initialize(nil)
	path := filepath.Join(dir, "relu", "relu.go")
	u, text := openFile(c, path)
	c.diagsFor(u, "first diagnostics", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
	change := func(version int, newText string) {
		c.Clear()
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": version},
			"contentChanges": []any{map[string]any{"text": newText}},
		})
	}
	// A new standard-library import: the dependency types are reloaded
	// and the analysis still runs.
	withStrings := strings.Replace(text, `import "github.com/jitlint/jitlint/jit"`, "import (\n\t\"strings\"\n\n\t\"github.com/jitlint/jitlint/jit\"\n)\n\nvar _ = strings.ToUpper", 1)
	change(2, withStrings)
	c.diagsFor(u, "diagnostics after adding an import", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
	// An import nobody can resolve: the server still answers (the package
	// is ill-typed, so analyzers that need types are skipped).
	broken := strings.Replace(withStrings, `"strings"`, `"example.com/does/not/exist"`, 1)
	change(3, broken)
	c.diagsFor(u, "a publish for the broken import", func([]protocol.Diagnostic) bool { return true })
	change(4, text)
	c.diagsFor(u, "diagnostics after the fix", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
}
