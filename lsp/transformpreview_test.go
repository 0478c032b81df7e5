package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

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

// startTrusted starts a server in a trusted workspace with a markdown
// hover client.
func startTrusted(t *testing.T) *testClient {
	c := startServer(t, Options{})
	c.initializeAs(map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown"}}}},
		map[string]any{"allowCodeExecution": true})
	return c
}

// TestHoverOnMakeJaxprCall: the jit.MakeJaxpr(F) call (not only F's name
// in it) shows F's preview, as the jit.Jit(F) call does.
func TestHoverOnMakeJaxprCall(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a preview harness")
	}
	dir := sampleModule(t, map[string]string{"relu/made.go": `package relu

import "github.com/jitlint/jitlint/jit"

// Scale doubles x.
func Scale(x jit.Array) jit.Array { return x.Mul(2) }

// ScaleJaxpr is Scale's jaxpr.
func ScaleJaxpr() (*jit.ClosedJaxpr, error) { return jit.MakeJaxpr(Scale)(jit.Spec(jit.Float32, 3)) }
`})
	c := startTrusted(t)
	u, text := openFile(c, filepath.Join(dir, "relu", "made.go"))
	h := c.hoverAt(u, text, "jit.MakeJaxpr(Scale)", len("jit.Make"))
	if !strings.Contains(h, "**Scale**") || !strings.Contains(h, "{ lambda ; a:f32[8]. let") || !strings.Contains(h, "mul a 2.0") {
		t.Errorf("hover on the jit.MakeJaxpr call:\n%s", h)
	}
}
