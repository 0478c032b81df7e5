package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// Test-only methods: one that blocks until cancelled, one that panics.
func init() {
	requests["jitls/test.block"] = func(s *Server, ctx context.Context, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return "finished", nil
	}
	requests["jitls/test.panic"] = func(s *Server, ctx context.Context, _ json.RawMessage) (any, error) {
		var m map[string]int
		m["boom"]++ // nil map write: a runtime panic
		return nil, nil
	}
}

func errCode(t *testing.T, m wireMsg) int {
	t.Helper()
	if m.Error == nil {
		t.Fatalf("want an error response, got result %s", m.Result)
	}
	return m.Error.Code
}

func TestShutdownThenExitCodeZero(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	if r := c.request("shutdown", nil); r.Error != nil {
		t.Fatalf("shutdown: %+v", r.Error)
	}
	if r := c.request("textDocument/hover", map[string]any{}); errCode(t, r) != -32600 {
		t.Errorf("request after shutdown: code %d, want InvalidRequest", r.Error.Code)
	}
	c.notify("exit", nil)
	if code := c.exitCode(); code != 0 {
		t.Errorf("exit after shutdown: code %d, want 0", code)
	}
}

func TestExitWithoutShutdownCodeOne(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	c.notify("exit", nil)
	if code := c.exitCode(); code != 1 {
		t.Errorf("exit without shutdown: code %d, want 1", code)
	}
}

func TestEOFWithoutExitCodeOne(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	c.toSrv.Close()
	if code := c.exitCode(); code != 1 {
		t.Errorf("end of input: code %d, want 1", code)
	}
}

func TestRequestBeforeInitialize(t *testing.T) {
	c := startServer(t, Options{})
	r := c.request("textDocument/hover", map[string]any{})
	if code := errCode(t, r); code != -32002 {
		t.Errorf("hover before initialize: code %d, want ServerNotInitialized (-32002)", code)
	}
	c.notify("textDocument/didOpen", map[string]any{}) // dropped, no reply, no crash
	c.initialize(nil)
	if r := c.request("initialize", map[string]any{}); errCode(t, r) != -32600 {
		t.Errorf("second initialize: code %d, want InvalidRequest", r.Error.Code)
	}
}

func TestInitializeAdvertisesFeatures(t *testing.T) {
	c := startServer(t, Options{Version: "v9"})
	r := c.request("initialize", map[string]any{"capabilities": map[string]any{}})
	var res struct {
		Capabilities struct {
			TextDocumentSync struct {
				Change int `json:"change"`
			} `json:"textDocumentSync"`
			HoverProvider          bool `json:"hoverProvider"`
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
		ServerInfo struct{ Name, Version string } `json:"serverInfo"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.Capabilities.TextDocumentSync.Change != 2 || !res.Capabilities.HoverProvider ||
		strings.Join(res.Capabilities.ExecuteCommandProvider.Commands, ",") != "jitls.showJaxpr,jitls.measureCompileCost,jitls.diffJaxpr,jitls.applyFix" ||
		res.ServerInfo.Version != "v9" {
		t.Errorf("initialize result %s", r.Result)
	}
}

func TestBadInitializationOptions(t *testing.T) {
	c := startServer(t, Options{})
	r := c.request("initialize", map[string]any{"initializationOptions": map[string]any{"allowCodeExecution": "yes"}})
	if code := errCode(t, r); code != -32602 || !strings.Contains(r.Error.Message, "allowCodeExecution") {
		t.Errorf("bad initializationOptions: %+v", r.Error)
	}
}

func TestUnknownMethods(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	c.notify("jitls/noSuchNotification", map[string]any{})
	c.notify("$/setTrace", map[string]any{"value": "off"})
	r := c.request("textDocument/completion", map[string]any{})
	if code := errCode(t, r); code != -32601 {
		t.Errorf("unknown method: code %d, want MethodNotFound", code)
	}
	if !strings.Contains(r.Error.Message, "textDocument/completion") {
		t.Errorf("error message %q does not name the method", r.Error.Message)
	}
}

func TestMalformedInput(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	c.sendRaw(`{"jsonrpc":"2.0","id":77,"method":`) // truncated JSON
	pe := c.waitFor("parse error", func(m wireMsg) bool { return m.Error != nil && m.Error.Code == -32700 })
	if string(pe.ID) != "null" {
		t.Errorf("parse error id = %s, want null", pe.ID)
	}
	c.sendRaw(`{"jsonrpc":"2.0","id":78,"params":{}}`) // no method
	c.waitFor("invalid request", func(m wireMsg) bool { return m.Error != nil && m.Error.Code == -32600 })
	c.writeRaw("Content-Length: banana\r\n\r\n") // bad header: skipped
	c.writeRaw("X-Nothing: 1\r\n\r\n")           // no Content-Length: skipped
	c.writeRaw("no colon here\r\n\r\n")          // garbage: skipped
	c.sendRaw(`[1,2,3]`)                         // a batch (unsupported)
	c.sendRaw(`{"jsonrpc":"2.0","id":79,"method":"textDocument/didOpen","params":"nonsense"}`)
	r := c.request("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": "untitled:1"}})
	if r.Error != nil {
		t.Errorf("server unusable after malformed input: %+v", r.Error)
	}
	c.request("shutdown", nil)
	c.notify("exit", nil)
	if code := c.exitCode(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func TestInvalidParams(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	r := c.request("textDocument/hover", "not an object")
	if code := errCode(t, r); code != -32602 {
		t.Errorf("hover with string params: code %d, want InvalidParams", code)
	}
}

func TestCancelNumericAndStringIDs(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	for _, id := range []string{`4242`, `"req-7"`} {
		c.callID(id, "jitls/test.block", nil)
		c.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(id)})
		r := c.response(id)
		if code := errCode(t, r); code != -32800 {
			t.Errorf("cancelled request %s: code %d, want RequestCancelled (-32800)", id, code)
		}
	}
	c.notify("$/cancelRequest", map[string]any{"id": 999999}) // unknown id: ignored
	c.notify("$/cancelRequest", map[string]any{"id": []int{1}})
	if r := c.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": "untitled:x"}}); r.Error != nil {
		t.Errorf("server unusable after cancellations: %+v", r.Error)
	}
}

func TestPanicBecomesInternalError(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	r := c.request("jitls/test.panic", nil)
	if code := errCode(t, r); code != -32603 || !strings.Contains(r.Error.Message, "jitls/test.panic") {
		t.Errorf("panicking handler: %+v, want InternalError naming the method", r.Error)
	}
	if r := c.request("shutdown", nil); r.Error != nil {
		t.Errorf("server dead after a panic: %+v", r.Error)
	}
}

func TestChangeToUnknownDocument(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": "file:///nowhere/x.go", "version": 2},
		"contentChanges": []map[string]any{{"text": "package x"}},
	})
	c.waitFor("a log message about the unknown document", func(m wireMsg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "not open")
	})
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere/y.go"}})
	if r := c.request("shutdown", nil); r.Error != nil {
		t.Errorf("shutdown: %+v", r.Error)
	}
}
