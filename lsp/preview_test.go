package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jitlint/jitlint/internal/textdoc"
)

func TestPreviewHoverCommandsAndLenses(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a preview harness")
	}
	dir := sampleModule(t, map[string]string{"relu/extra.go": `package relu

import (
	"github.com/jitlint/jitlint/jit"
	_ "github.com/jitlint/jitlint/jit/gpu" // the preview links the GPU backend as the package does
)

//jit:traced
func Explodes(x jit.Array) jit.Array { panic("boom from user code") }

// Layer is a pytree argument.
type Layer struct{ W, B jit.Array }

//jit:args {W: f32[2,2], B: f32[2]}, f32[2], {"s": f32[2]}
func Apply(l Layer, x jit.Array, m map[string]jit.Array) jit.Array { return x.Mul(l.B).Add(m["s"]) }
`})
	before := treeDigest(t, dir)
	c := startServer(t, Options{})
	c.request("initialize", map[string]any{
		"rootUri":               textdoc.FileURI(dir),
		"initializationOptions": map[string]any{"allowCodeExecution": true},
		"capabilities": map[string]any{
			"window":       map[string]any{"workDoneProgress": true},
			"workspace":    map[string]any{"codeLens": map[string]any{"refreshSupport": true}},
			"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown"}}},
		},
	})
	c.notify("initialized", map[string]any{})
	path := filepath.Join(dir, "relu", "relu.go")
	u, text := openFile(c, path)
	hover := func(sub string, delta int) string { t.Helper(); return c.hoverAt(u, text, sub, delta) }

	// Hover on the function name: the jaxpr, traced with the directive's signature.
	h := hover("func ReluWhere", 6)
	if !strings.Contains(h, "{ lambda ; a:f32[5]. let") || !strings.Contains(h, "select_n") || !strings.Contains(h, "`f32[5]`") {
		t.Errorf("hover on ReluWhere:\n%s", h)
	}
	c.waitFor("$/progress end", func(m wireMsg) bool { return m.Method == "$/progress" && strings.Contains(string(m.Params), `"end"`) })
	// Hover on the jit.Jit call of a function with a static argument.
	h = hover("jit.Jit(Power", 2)
	if strings.Count(h, "mul") != 3 || !strings.Contains(h, "`3, f32[4]`") {
		t.Errorf("hover on jit.Jit(Power, ...):\n%s", h)
	}
	// Hover on a use of the name (here inside the jit.Jit call's argument).
	if h := hover("jit.Jit(ReluWhere)", 8); !strings.Contains(h, "select_n") {
		t.Errorf("hover on a use of ReluWhere:\n%s", h)
	}
	// ReluBad fails to trace: the hover shows jit's error, readably.
	if h := hover("func ReluBad", 6); !strings.Contains(h, "tracing failed") || !strings.Contains(h, "default shapes") && !strings.Contains(h, "f32[8]") {
		t.Errorf("hover on ReluBad:\n%s", h)
	}
	// Nothing on other identifiers.
	if r := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": position(t, text, "return x", 0)}); string(r.Result) != "null" {
		t.Errorf("hover off a traced function: %s", r.Result)
	}

	r := c.request("workspace/executeCommand", map[string]any{"command": CommandShowJaxpr, "arguments": []any{map[string]any{"uri": u, "function": "Power"}}})
	var jx struct {
		Function, Signature, Jaxpr string
		Eqns                       int
	}
	if r.Error != nil || json.Unmarshal(r.Result, &jx) != nil || jx.Function != "Power" || jx.Signature != "3, f32[4]" || jx.Eqns != 3 {
		t.Errorf("showJaxpr Power: %+v %s", r.Error, r.Result)
	}
	r = c.request("workspace/executeCommand", map[string]any{"command": CommandShowJaxpr, "arguments": []any{map[string]any{"uri": u, "function": "Apply"}}})
	if r.Error != nil || json.Unmarshal(r.Result, &jx) != nil || jx.Eqns != 2 || !strings.Contains(jx.Jaxpr, "f32[2,2]") {
		t.Errorf("showJaxpr Apply (pytree arguments): %+v %s", r.Error, r.Result)
	}
	r = c.request("workspace/executeCommand", map[string]any{"command": CommandMeasureCompileCost, "arguments": []any{map[string]any{"uri": u, "function": "ReluWhere"}}})
	var cost struct {
		Function, Backend, GPUEstimate                         string
		TraceMs, LowerMs, CompileMs, FirstCallMs, CachedCallMs float64
	}
	if r.Error != nil || json.Unmarshal(r.Result, &cost) != nil || cost.Backend == "" || cost.CompileMs <= 0 || cost.FirstCallMs <= 0 {
		t.Errorf("measureCompileCost ReluWhere: %+v %s", r.Error, r.Result)
	}
	if os.Getenv("JITLINT_PTXAS") != "" && cost.Backend == "cpu" && !strings.Contains(cost.GPUEstimate, "(estimate: PTX ") {
		t.Errorf("no GPU but ptxas: the result has no offline GPU compile estimate: %s", r.Result)
	}
	c.waitFor("codeLens refresh", func(m wireMsg) bool { return m.Method == "workspace/codeLens/refresh" })
	r = c.request("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}})
	if !strings.Contains(string(r.Result), `"title":"compile `) || !strings.Contains(string(r.Result), "· cached ") {
		t.Errorf("code lens title after a measurement: %s", r.Result)
	}
	if h := hover("func ReluWhere", 6); !strings.Contains(h, "compile ") {
		t.Errorf("hover after a measurement lacks the cost:\n%s", h)
	}

	// A panic in user code is an error reply, not a dead server.
	r = c.request("workspace/executeCommand", map[string]any{"command": CommandShowJaxpr, "arguments": []any{map[string]any{"uri": u, "function": "Explodes"}}})
	if r.Error == nil || !strings.Contains(r.Error.Message, "boom from user code") || !strings.Contains(r.Error.Message, "extra.go") {
		t.Errorf("panicking user code: %+v", r.Error)
	}
	// An unsaved edit that breaks the build: a readable build error.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{"text": strings.Replace(text, "return jit.Where(x.Gt(0), x, 0.0)", "return jit.Where(x.Gt(0), x, undefinedName)", 1)}},
	})
	r = c.request("workspace/executeCommand", map[string]any{"command": CommandShowJaxpr, "arguments": []any{map[string]any{"uri": u, "function": "ReluWhere"}}})
	if r.Error == nil || !strings.Contains(r.Error.Message, "undefinedName") || !strings.Contains(r.Error.Message, "does not build") {
		t.Errorf("build error: %+v", r.Error)
	}
	c.request("shutdown", nil)
	c.notify("exit", nil)
	c.exitCode()
	if after := treeDigest(t, dir); after != before {
		t.Errorf("the workspace changed during the session")
	}
}

func TestPreviewTimeoutAndCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a preview harness")
	}
	dir := sampleModule(t, map[string]string{"relu/spin.go": `package relu

import "github.com/jitlint/jitlint/jit"

//jit:traced
func Spin(x jit.Array) jit.Array {
	for {
	}
}
`})
	c := startServer(t, Options{RunTimeout: 3 * time.Second})
	c.initializeIn(dir, fullClient, map[string]any{"allowCodeExecution": true})
	u, _ := openFile(c, filepath.Join(dir, "relu", "spin.go"))
	args := map[string]any{"command": CommandShowJaxpr, "arguments": []any{map[string]any{"uri": u, "function": "Spin"}}}
	r := c.request("workspace/executeCommand", args)
	if r.Error == nil || !strings.Contains(r.Error.Message, "did not finish within 3s") {
		t.Errorf("endless user code: %+v", r.Error)
	}
	// The same request cancelled by the client: RequestCancelled, promptly
	// (well before the 3 s run timeout would end it).
	c.callID("555", "workspace/executeCommand", args)
	c.waitFor("progress begin", func(m wireMsg) bool {
		return m.Method == "$/progress" && strings.Contains(string(m.Params), `"begin"`) && strings.Contains(string(m.Params), "Spin")
	})
	c.notify("$/cancelRequest", map[string]any{"id": 555})
	if r := c.response("555"); r.Error == nil || r.Error.Code != -32800 {
		t.Errorf("cancelled preview: %+v", r.Error)
	}
}

func TestPreviewInPackageMain(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a preview harness")
	}
	dir := sampleModule(t, map[string]string{"tool/main.go": `package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func square(x jit.Array) jit.Array { return x.Mul(x) }

func main() {
	f := jit.Jit(square)
	fmt.Println(f.Call(jit.Arange(4, jit.Float32)))
}
`})
	c := startServer(t, Options{})
	c.initializeIn(dir, fullClient, map[string]any{"allowCodeExecution": true})
	u, _ := openFile(c, filepath.Join(dir, "tool", "main.go"))
	r := c.request("workspace/executeCommand", map[string]any{"command": CommandShowJaxpr, "arguments": []any{map[string]any{"uri": u, "function": "square"}}})
	var jx struct {
		Signature, Jaxpr string
		Eqns             int
	}
	if r.Error != nil || json.Unmarshal(r.Result, &jx) != nil || jx.Eqns != 1 || jx.Signature != "f32[8]" || !strings.Contains(jx.Jaxpr, "mul a a") {
		t.Errorf("showJaxpr of an unexported function in package main: %+v %s", r.Error, r.Result)
	}
}
