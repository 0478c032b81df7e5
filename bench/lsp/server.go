package main

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/jitlint/jitlint/lsp/lsptest"
)

// jitlsProcess is a jitls server started on the module, with the state of
// the one document the benchmark edits.
type jitlsProcess struct {
	cmd     *exec.Cmd
	c       *client
	uri     string
	text    string
	version int
}

// startJitls starts bin/jitls in mod with the given -diagnostics-delay
// (and extra environment) and initializes it as a client with versioned
// diagnostics and work-done progress, with mod as the (trusted) workspace
// folder.
func startJitls(bin, mod, delay string, env ...string) (*jitlsProcess, error) {
	cmd := exec.Command(filepath.Join(bin, "jitls"), "-diagnostics-delay="+delay, "-logfile", filepath.Join(os.TempDir(), "jitls-bench.log"))
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), env...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &jitlsProcess{cmd: cmd, c: newClient(stdin, stdout)}
	caps := map[string]any{
		"window":       map[string]any{"workDoneProgress": true},
		"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}},
	}
	root := (&url.URL{Scheme: "file", Path: filepath.ToSlash(mod)}).String()
	if _, err := p.c.request("initialize", map[string]any{"capabilities": caps, "rootUri": root, "initializationOptions": map[string]any{"allowCodeExecution": true}}); err != nil {
		cmd.Process.Kill()
		return nil, err
	}
	p.c.Notify("initialized", map[string]any{})
	return p, nil
}

// latency opens file with src and returns the time to its first
// diagnostics and the didChange → diagnostics time of n edits.
func (p *jitlsProcess) latency(file, src string, n int) (time.Duration, []time.Duration, error) {
	p.uri, p.text, p.version = "file://"+file, src, 1
	t0 := time.Now()
	p.c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": p.uri, "languageId": "go", "version": 1, "text": src}})
	if err := p.c.diagnostics(p.uri, 1); err != nil {
		return 0, nil, err
	}
	first := time.Since(t0)
	lat, err := p.edits(n)
	return first, lat, err
}

// edits makes n edits, each waiting for its diagnostics, and returns the
// time each took.
func (p *jitlsProcess) edits(n int) ([]time.Duration, error) {
	var lat []time.Duration
	for range n {
		p.version++
		// Toggle one literal inside a traced function (an incremental change).
		old, repl := "0.5", "0.7"
		if p.version%2 == 1 {
			old, repl = "0.7", "0.5"
		}
		i := strings.Index(p.text, old)
		if i < 0 {
			return nil, fmt.Errorf("no %s in the edited text", old)
		}
		line := strings.Count(p.text[:i], "\n")
		col := i - strings.LastIndex(p.text[:i], "\n") - 1
		p.text = p.text[:i] + repl + p.text[i+len(old):]
		start := time.Now()
		p.c.Notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": p.uri, "version": p.version},
			"contentChanges": []any{map[string]any{
				"range": map[string]any{"start": map[string]int{"line": line, "character": col}, "end": map[string]int{"line": line, "character": col + 3}},
				"text":  repl}},
		})
		if err := p.c.diagnostics(p.uri, p.version); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(start))
	}
	return lat, nil
}

// close shuts the server down.
func (p *jitlsProcess) close() {
	p.c.request("shutdown", nil)
	p.c.Notify("exit", nil)
	p.cmd.Wait()
}

// coldStart measures a server whose build cache is empty: the time from
// didOpen to the first work-done progress message and to the first
// diagnostics.
func coldStart(bin, mod, file, src string) (progress, diags time.Duration, err error) {
	cache, err := os.MkdirTemp("", "jitls-bench-gocache-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(cache)
	p, err := startJitls(bin, mod, "0", "GOCACHE="+cache)
	if err != nil {
		return 0, 0, err
	}
	defer p.close()
	uri := "file://" + file
	start := time.Now()
	p.c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": src}})
	if _, err := p.c.Wait(func(m lsptest.Message) bool { return m.Method == "$/progress" }); err != nil {
		return 0, 0, err
	}
	progress = time.Since(start)
	if err := p.c.diagnostics(uri, 1); err != nil {
		return 0, 0, err
	}
	return progress, time.Since(start), nil
}

// goListCold times go list -export -deps of the package in dir with an
// empty build cache.
func goListCold(dir string) (time.Duration, error) {
	cache, err := os.MkdirTemp("", "jitls-bench-gocache-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(cache)
	cmd := exec.Command("go", "list", "-export", "-deps", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOCACHE="+cache)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("go list -export -deps: %v\n%s", err, out)
	}
	return time.Since(start), nil
}
