package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// TestLoadProgress: a dependency load that takes longer than
// progressDelay (here 0, so every load) is shown as work-done progress
// that counts the packages and ends when the load is done.
func TestLoadProgress(t *testing.T) {
	defer func(d time.Duration) { progressDelay = d }(progressDelay)
	progressDelay = 0
	dir := sampleModule(t, nil)
	c := startServer(t, Options{Analyzers: boolCallSuite})
	c.initialize(nil)
	u, _ := openFile(c, filepath.Join(dir, "relu", "relu.go"))
	c.waitFor("progress begin", func(m wireMsg) bool {
		return m.Method == "$/progress" && strings.Contains(string(m.Params), `"title":"jitls: loading dependencies"`)
	})
	c.waitFor("progress end", func(m wireMsg) bool {
		return m.Method == "$/progress" && strings.Contains(string(m.Params), `"kind":"end"`) && strings.Contains(string(m.Params), "loaded in")
	})
	c.diagsFor(u, "the diagnostics after the load", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
}

// TestSyntaxFindingsBeforeTypes: the //jit:args syntax is checked as soon
// as the file parses, so it is reported even when the package's
// dependencies cannot be loaded at all (here go.mod names a module that
// does not exist).
func TestSyntaxFindingsBeforeTypes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/broken\n\ngo 1.26.0\n\nrequire example.com/nowhere v1.0.0\n",
		"p/p.go": "package p\n\nimport \"example.com/nowhere\"\n\n//jit:args f32[4,\nfunc F(x nowhere.T) nowhere.T { return x }\n",
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	c := startServer(t, Options{})
	c.initialize(nil)
	u, _ := openFile(c, filepath.Join(dir, "p", "p.go"))
	d := c.diagsFor(u, "the //jit:args syntax finding", func(d []protocol.Diagnostic) bool { return len(d) == 1 })[0]
	if d.Code != "jitargs" || !strings.Contains(d.Message, "malformed //jit:args directive") || d.Range.Start.Line != 4 {
		t.Errorf("syntax-level finding: %+v", d)
	}
	// The full analysis (which cannot load the dependencies) keeps it.
	if last := publishAfterAnalysis(c, filepath.Join(dir, "p")); !onlyJitargs(last) {
		t.Errorf("after the analysis that could not load the dependencies: %s, want the syntax finding", last.Params)
	}
}

// publishAfterAnalysis returns the diagnostics the server publishes after
// it logs the end of dir's analysis (the messages before it are dropped).
func publishAfterAnalysis(c *testClient, dir string) wireMsg {
	all := func(wireMsg) bool { return true }
	for {
		m, err := c.Take(all)
		if err != nil {
			c.t.Fatalf("waiting for the end of the analysis of %s: %v", dir, err)
		}
		if m.Method == "window/logMessage" && strings.Contains(string(m.Params), "analysed "+dir) {
			break
		}
	}
	m, err := c.Take(func(m wireMsg) bool { return m.Method == "textDocument/publishDiagnostics" })
	if err != nil {
		c.t.Fatalf("waiting for the diagnostics of %s: %v", dir, err)
	}
	return m
}

// onlyJitargs reports whether a publishDiagnostics holds one finding, of
// the //jit:args directive.
func onlyJitargs(m wireMsg) bool {
	var p struct {
		Diagnostics []protocol.Diagnostic `json:"diagnostics"`
	}
	return json.Unmarshal(m.Params, &p) == nil && len(p.Diagnostics) == 1 && p.Diagnostics[0].Code == "jitargs"
}

// TestSyntaxFindingsWithTypeErrors: when the package loads but has type
// errors (so the analyzers are skipped), the //jit:args syntax findings
// are still reported, with nothing else.
func TestSyntaxFindingsWithTypeErrors(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/typeerr\n\ngo 1.26.0\n",
		"p/p.go": "package p\n\n//jit:args f32[4,\nfunc F(x int) int { return x }\n\nvar _ int = \"not an int\"\n",
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := startServer(t, Options{})
	c.initialize(nil)
	u, _ := openFile(c, filepath.Join(dir, "p", "p.go"))
	if last := publishAfterAnalysis(c, filepath.Join(dir, "p")); !onlyJitargs(last) {
		t.Errorf("the diagnostics of %s after the analysis: %s, want the one syntax finding", u, last.Params)
	}
}
