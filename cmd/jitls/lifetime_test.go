package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jitlint/jitlint/lsp/lsptest"
)

// The tests in this file end a jitls process in each way a session can
// end while a preview runs or builds, and check that nothing it started
// survives it: no process (found by a string only that test's processes
// have on their command line) and no file in its TMPDIR.

// hintCaps is a plaintext client that accepts inlay hint refreshes.
var hintCaps = map[string]any{
	"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"plaintext"}}},
	"workspace":    map[string]any{"inlayHint": map[string]any{"refreshSupport": true}},
}

var trusted = map[string]any{"allowCodeExecution": true}

// slowFile is a traced function whose trace runs a child process, sleep
// with the unique duration mark, until it is killed.
func slowFile(mark string) string {
	return `package relu

import (
	"os/exec"

	"github.com/jitlint/jitlint/jit"
)

//jit:args f32[4]
func Slow(x jit.Array) jit.Array {
	exec.Command("sleep", "` + mark + `").Run()
	return x.Sin()
}
`
}

// uniqueMark is a sleep duration (in seconds) no other process has on its
// command line.
func uniqueMark() string {
	return fmt.Sprintf("600.%09d", time.Now().UnixNano()%1e9)
}

func TestPreviewProcessesEndWithTheServer(t *testing.T) {
	needProc(t)
	for _, c := range []struct{ name, trigger, end string }{
		{"inlay hints, then shutdown and exit", "hints", "shutdown"},
		{"hover, then exit without shutdown", "hover", "exit"},
		{"lens command, then stdin closed", "command", "eof"},
		{"hover, then the request cancelled", "hover", "cancel"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mark := uniqueMark()
			dir := lsptest.SampleModule(t, map[string]string{"relu/slow.go": slowFile(mark)})
			s := startStdio(t, "")
			s.initialize(dir, hintCaps, trusted)
			u, text := s.open(filepath.Join(dir, "relu", "slow.go"))
			doc := map[string]any{"uri": u}
			var id string
			switch c.trigger {
			case "hints":
				id, _ = s.Call("textDocument/inlayHint", map[string]any{"textDocument": doc,
					"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 100, "character": 0}}})
			case "hover":
				line := strings.Count(text[:strings.Index(text, "func Slow")], "\n")
				id, _ = s.Call("textDocument/hover", map[string]any{"textDocument": doc, "position": map[string]any{"line": line, "character": 6}})
			case "command":
				id, _ = s.Call("workspace/executeCommand", map[string]any{"command": "jitls.showJaxpr", "arguments": []any{map[string]any{"uri": u, "function": "Slow"}}})
			}
			if !waitFor(stdioTimeout, func() bool { return len(mentioning(mark)) > 0 }) {
				t.Fatalf("the preview of Slow (started by %s) never ran its sleep", c.trigger)
			}
			switch c.end {
			case "shutdown":
				if m, err := s.Request("shutdown", nil); err != nil || m.Error != nil {
					t.Fatalf("shutdown: %v %+v", err, m.Error)
				}
				s.Notify("exit", nil)
			case "exit":
				s.Notify("exit", nil)
			case "eof":
				s.stdin.Close()
			case "cancel":
				s.Notify("$/cancelRequest", map[string]any{"id": rawJSON(id)})
				if m, err := s.Response(id); err != nil || m.Error == nil || m.Error.Code != -32800 {
					t.Fatalf("cancelled %s: %v %+v", c.trigger, err, m.Error)
				}
				noneWithin(t, 2*time.Second, mark)
				s.Request("shutdown", nil)
				s.Notify("exit", nil)
			}
			s.waitExit()
			noneWithin(t, 2*time.Second, mark, s.tmp)
			if left := tempLeftovers(t, s.tmp); len(left) > 0 {
				t.Errorf("the server left in its TMPDIR: %v", left)
			}
		})
	}
}

// rawJSON is a raw JSON value in the test client's params.
type rawJSON string

func (j rawJSON) MarshalJSON() ([]byte, error) { return []byte(j), nil }

// slowLink writes a -toolexec program that runs every tool of the go
// command but the linker, which it replaces by a long sleep after creating
// the file linking, and returns the GOFLAGS that use it: a preview build
// then stays in go test -c, with the go command's temporary directories
// in place, for as long as a test needs.
func slowLink(t *testing.T) (goflags, linking string) {
	dir := t.TempDir()
	linking = filepath.Join(dir, "linking")
	tool := filepath.Join(dir, "slowlink")
	script := "#!/bin/sh\ncase \"$1\" in\n*/link) : >" + linking + "; sleep 600; exit 1;;\nesac\nexec \"$@\"\n"
	if err := os.WriteFile(tool, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return "GOFLAGS=-toolexec=" + tool, linking
}

// hoverReluWhere opens the sample's relu.go and hovers on ReluWhere,
// which builds its preview; it returns the request's id.
func hoverReluWhere(s *stdioServer, dir string) string {
	u, text := s.open(filepath.Join(dir, "relu", "relu.go"))
	line := strings.Count(text[:strings.Index(text, "func ReluWhere")], "\n")
	id, _ := s.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": line, "character": 6}})
	return id
}

// waitLinking waits until a preview build reaches the linker.
func waitLinking(t *testing.T, linking string) {
	t.Helper()
	if !waitFor(stdioTimeout, func() bool { _, err := os.Stat(linking); return err == nil }) {
		t.Fatalf("the preview build never reached the linker")
	}
}

// startBuilding starts a trusted server on the sample module whose
// preview builds stay in the linker (slowLink); it returns the server, the
// module and the file that says a build is linking.
func startBuilding(t *testing.T) (*stdioServer, string, string) {
	needProc(t)
	goflags, linking := slowLink(t)
	dir := lsptest.SampleModule(t, nil)
	s := startStdio(t, "", goflags)
	s.initialize(dir, hintCaps, trusted)
	return s, dir, linking
}

func TestBuildCancelledOrEndedLeavesNoTempFiles(t *testing.T) {
	s, dir, linking := startBuilding(t)
	id := hoverReluWhere(s, dir)
	waitLinking(t, linking)
	s.Notify("$/cancelRequest", map[string]any{"id": rawJSON(id)})
	if m, err := s.Response(id); err != nil || m.Error == nil || m.Error.Code != -32800 {
		t.Fatalf("cancelled hover: %v %+v", err, m.Error)
	}
	noneWithin(t, 2*time.Second, linking, s.tmp)
	for _, f := range tempLeftovers(t, s.tmp) {
		if b := filepath.Base(f); strings.HasPrefix(b, "go-build") || strings.HasPrefix(b, "go-link-") {
			t.Errorf("the cancelled build left %s in TMPDIR", f)
		}
	}

	// exit without shutdown, during a build.
	os.Remove(linking)
	s.Clear()
	hoverReluWhere(s, dir)
	waitLinking(t, linking)
	s.Notify("exit", nil)
	s.waitExit()
	noneWithin(t, 2*time.Second, linking, s.tmp)
	if left := tempLeftovers(t, s.tmp); len(left) > 0 {
		t.Errorf("exit during a build left in TMPDIR: %v", left)
	}
}

func TestKilledServerLeavesNoProcessesAndItsDirectoryIsCleanedNextStart(t *testing.T) {
	s, dir, linking := startBuilding(t)
	hoverReluWhere(s, dir)
	waitLinking(t, linking)
	s.cmd.Process.Signal(syscall.SIGKILL)
	s.waitExit()
	noneWithin(t, 2*time.Second, linking, s.tmp)
	if stale := tempLeftovers(t, s.tmp); !slices.ContainsFunc(stale, func(f string) bool { return strings.HasPrefix(f, "jitls-previews-") }) {
		t.Errorf("the killed server left no directory of its own (so the next start has nothing to clean): %v", stale)
	}

	next := startStdio(t, s.tmp)
	next.initialize(dir, hintCaps, nil)
	if left := tempLeftovers(t, s.tmp); len(left) > 0 {
		t.Errorf("the next server did not clean what the killed one left: %v", left)
	}
}
