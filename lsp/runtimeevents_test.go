package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers"
)

// recompilingApp calls a jitted function with a static argument that
// changes: the call site compiles three times.
const recompilingApp = `package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func power(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ {
		x = x.Mul(x)
	}
	return x
}

func main() {
	f := jit.Jit(power, jit.StaticArgnums(0))
	x := jit.Ones(jit.Float32, 4)
	for n := 1; n <= 3; n++ {
		fmt.Println(f.Call(n, x))
	}
	fmt.Println(f.Call(1, x))
}
`

func allAnalyzers(Settings) []*analysis.Analyzer { return analyzers.All() }

// TestRuntimeEventsDiagnostics runs a real program with JITLINT_EVENTS
// while the server watches the file named by runtimeEvents: the call site
// that compiled three times gets an Information diagnostic saying so, why,
// and that the staticargs analyzer agrees; an edit of the file drops it and
// undoing the edit brings it back.
func TestRuntimeEventsDiagnostics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	dir := sampleModule(t, map[string]string{"app/main.go": recompilingApp})
	events := filepath.Join(t.TempDir(), "events.jsonl")
	c := startServer(t, Options{Analyzers: allAnalyzers})
	c.initialize(map[string]any{"runtimeEvents": events})
	path := filepath.Join(dir, "app", "main.go")
	u, text := openFile(c, path)
	isRuntime := func(d protocol.Diagnostic) bool { return d.Code == "runtime" }
	c.diagsFor(u, "the analyzers' diagnostics", func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })

	run := exec.Command("go", "run", "./app")
	run.Dir = dir
	run.Env = append(os.Environ(), "JITLINT_EVENTS="+events)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("go run ./app: %v\n%s", err, out)
	}
	ds := c.diagsFor(u, "a runtime diagnostic", func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if isRuntime(d) {
				return true
			}
		}
		return false
	})
	var rt []protocol.Diagnostic
	for _, d := range ds {
		if isRuntime(d) {
			rt = append(rt, d)
		}
	}
	callLine := uint32(strings.Count(text[:strings.Index(text, "fmt.Println(f.Call(n, x))")], "\n"))
	if len(rt) != 1 {
		t.Fatalf("runtime diagnostics: %+v", rt)
	}
	d := rt[0]
	if d.Range.Start.Line != callLine || d.Severity != protocol.DiagnosticSeverityInformation || d.Source != "jitls" ||
		!strings.HasPrefix(d.Message, "compiled 3 times in the last run: static argument n changed (1→2→3); ") ||
		!strings.Contains(d.Message, "tracing and compiling power in all") ||
		!strings.Contains(d.Message, "(the staticargs analyzer reports this call too: the run agrees)") {
		t.Errorf("runtime diagnostic: %+v", d)
	}

	// An edit moves lines: the run's positions are stale and dropped.
	c.Clear() // earlier publications must not answer the waits below
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{
			"range": protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 0}}, "text": "// moved\n"}},
	})
	noRuntime := func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if isRuntime(d) {
				return false
			}
		}
		return len(ds) > 0
	}
	hasRuntime := func(ds []protocol.Diagnostic) bool { return !noRuntime(ds) }
	c.diagsFor(u, "diagnostics without the runtime one", noRuntime)
	// Undoing the edit makes the buffer the file the run executed again.
	c.Clear()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": u, "version": 3}, "contentChanges": []any{map[string]any{"text": text}}})
	c.diagsFor(u, "the runtime diagnostic back", hasRuntime)
}
