package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jitlint/jitlint/lsp/lsptest"
	"go.lsp.dev/uri"
)

// The tests in this file send a jitls process, over its stdio, the faulty
// input a probe of the server found mishandled (issue 22).

// answerWait bounds the wait for an answer the server owes at once.
const answerWait = 20 * time.Second

// answered waits for the response to id.
func (s *stdioServer) answered(id string) (lsptest.Message, bool) {
	var m lsptest.Message
	ok := waitFor(answerWait, func() bool {
		return s.Has(func(r lsptest.Message) bool {
			if r.Method == "" && string(r.ID) == id {
				m = r
				return true
			}
			return false
		})
	})
	return m, ok
}

// lensRequest is a codeLens request with the raw JSON id, on an untitled
// buffer (answered with [] at once, nothing loaded).
func lensRequest(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"textDocument/codeLens","params":{"textDocument":{"uri":"untitled:Untitled-1"}}}`
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

func TestFramingResynchronises(t *testing.T) {
	s := startStdio(t, "")
	s.initialize("", map[string]any{}, nil)
	want := func(what string, ids ...string) {
		t.Helper()
		for _, id := range ids {
			if m, ok := s.answered(id); !ok || m.Error != nil {
				t.Errorf("after %s: request %s unanswered or failed (%+v)", what, id, m.Error)
			}
		}
	}
	// A header line without a colon before an ordinary frame.
	s.WriteRaw("garbage line\r\n" + frame(lensRequest("101")) + frame(lensRequest("102")) + frame(lensRequest("103")))
	want("a garbage line", "101", "102", "103")
	// A malformed line inside a header block.
	s.WriteRaw("Content-Length: " + fmt.Sprint(len(lensRequest("201"))) + "\r\nnot a header\r\n\r\n" + lensRequest("201") + frame(lensRequest("202")))
	want("a malformed header line", "201", "202")
	// A Content-Length over the limit: an error, and what follows is served.
	s.WriteRaw("Content-Length: 99999999999\r\n\r\n" + lensRequest("300") + frame(lensRequest("301")) + frame(lensRequest("302")))
	want("an oversized frame", "301", "302")
	if !s.Has(func(m lsptest.Message) bool {
		return m.Method == "" && string(m.ID) == "null" && m.Error != nil && strings.Contains(m.Error.Message, "99999999999")
	}) {
		t.Errorf("no error reply names the oversized frame")
	}
	// A Content-Length that is not a number.
	s.WriteRaw("Content-Length: banana\r\n\r\n" + lensRequest("400") + frame(lensRequest("401")))
	want("an unreadable Content-Length", "401")
}

func TestIDsEchoedAsSent(t *testing.T) {
	s := startStdio(t, "")
	s.initialize("", map[string]any{}, nil)
	for _, id := range []string{`""`, `"a b"`, `"7"`, `0`, `-7`, `99999999999`, `1.5`, `null`} {
		s.Send(lensRequest(id))
		m, ok := s.answered(id)
		if !ok {
			t.Errorf("request with id %s: no response with that id", id)
			continue
		}
		if m.Error != nil || string(m.Result) != "[]" {
			t.Errorf("request with id %s: %s %+v, want []", id, m.Result, m.Error)
		}
	}
}

func TestBadURIIsOneClearDiagnostic(t *testing.T) {
	s := startStdio(t, "")
	s.initialize("", map[string]any{}, nil)
	const bad = "file:///home/u/%ZZ/x.go"
	s.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": bad, "languageId": "go", "version": 1, "text": "package x\n"}})
	d, err := s.Wait(func(m lsptest.Message) bool {
		return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), "%ZZ")
	})
	if err != nil {
		t.Errorf("no diagnostic on the document with a bad URI: %v", err)
	} else if !strings.Contains(string(d.Params), "escape") {
		t.Errorf("the diagnostic does not say what is wrong with the URI: %s", d.Params)
	}
	for _, method := range []string{"textDocument/hover", "textDocument/codeLens", "textDocument/inlayHint", "textDocument/semanticTokens/full"} {
		m, err := s.Request(method, map[string]any{"textDocument": map[string]any{"uri": bad}, "position": map[string]any{"line": 0, "character": 0},
			"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 1, "character": 0}}})
		if err != nil || m.Error != nil && m.Error.Code == -32603 {
			t.Errorf("%s on the bad URI: %v %+v", method, err, m.Error)
		}
	}
	if s.Has(func(m lsptest.Message) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "panic")
	}) {
		t.Errorf("the server panicked on the bad URI")
	}
}

// initFile is a package whose initialiser leaves a file behind: it shows
// whether jitls ran its code.
func initFile(ran string) string {
	return `package relu

import "os"

func init() { os.WriteFile(` + fmt.Sprintf("%q", ran) + `, nil, 0o644) }
`
}

func TestTrustCoversOnlyTheWorkspaceFolders(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a preview harness")
	}
	ran := filepath.Join(t.TempDir(), "ran")
	inside := lsptest.SampleModule(t, nil)
	outside := lsptest.SampleModule(t, map[string]string{"relu/init.go": initFile(ran)})
	for _, format := range []string{"plaintext", "markdown"} {
		s := startStdio(t, "")
		s.initialize(inside, map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{format}}}}, trusted)
		u, text := s.open(filepath.Join(outside, "relu", "relu.go"))
		pos := map[string]any{"line": strings.Count(text[:strings.Index(text, "func ReluWhere")], "\n"), "character": 6}
		m, err := s.Request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": pos})
		var h struct{ Contents struct{ Kind, Value string } }
		if err != nil || m.Error != nil || json.Unmarshal(m.Result, &h) != nil {
			t.Fatalf("hover outside the workspace folder: %v %+v %s", err, m.Error, m.Result)
		}
		if h.Contents.Kind != format || !strings.Contains(h.Contents.Value, "outside") || strings.Contains(h.Contents.Value, "select_n") {
			t.Errorf("%s hover outside the workspace folder: %+v", format, h.Contents)
		}
		if format == "plaintext" && strings.ContainsAny(h.Contents.Value, "`*") {
			t.Errorf("plaintext hover has Markdown: %q", h.Contents.Value)
		}
		if format == "markdown" && !strings.Contains(h.Contents.Value, "`"+inside+"`") {
			t.Errorf("markdown hover does not show the folder as code: %q", h.Contents.Value)
		}
		m, _ = s.Request("workspace/executeCommand", map[string]any{"command": "jitls.showJaxpr", "arguments": []any{map[string]any{"uri": u, "function": "ReluWhere"}}})
		if m.Error == nil || !strings.Contains(m.Error.Message, "outside") {
			t.Errorf("showJaxpr outside the workspace folder: %+v %s", m.Error, m.Result)
		}
		m, _ = s.Request("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": u},
			"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 100, "character": 0}}})
		if string(m.Result) != "[]" {
			t.Errorf("inlay hints outside the workspace folder: %s %+v", m.Result, m.Error)
		}
		if format == "plaintext" {
			// Inside the folder, the same session previews.
			iu, itext := s.open(filepath.Join(inside, "relu", "relu.go"))
			ipos := map[string]any{"line": strings.Count(itext[:strings.Index(itext, "func ReluWhere")], "\n"), "character": 6}
			m, _ = s.Request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": iu}, "position": ipos})
			if !strings.Contains(string(m.Result), "select_n") {
				t.Errorf("hover inside the workspace folder: %s %+v", m.Result, m.Error)
			}
		}
		s.Request("shutdown", nil)
		s.Notify("exit", nil)
		s.waitExit()
	}
	if _, err := os.Stat(ran); err == nil {
		t.Errorf("jitls ran the code of a module outside the workspace folder")
	}
}

func TestMissingDirectoryIsNamed(t *testing.T) {
	dir := t.TempDir()
	s := startStdio(t, "")
	s.initialize(dir, map[string]any{}, trusted)
	gone := filepath.Join(dir, "gone", "x.go")
	u := string(uri.File(gone))
	s.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "go", "version": 1,
		"text": "package x\n\nimport \"github.com/jitlint/jitlint/jit\"\n\n//jit:traced\nfunc F(x jit.Array) jit.Array { return x }\n"}})
	m, err := s.Request("workspace/executeCommand", map[string]any{"command": "jitls.showJaxpr", "arguments": []any{map[string]any{"uri": u, "function": "F"}}})
	if err != nil || m.Error == nil {
		t.Fatalf("showJaxpr in a missing directory: %v %+v", err, m.Error)
	}
	if msg := m.Error.Message; !strings.Contains(msg, filepath.Dir(gone)) || !strings.Contains(msg, "does not exist") || strings.Contains(msg, "fork/exec") {
		t.Errorf("error for a file in a missing directory: %q", msg)
	}
}
