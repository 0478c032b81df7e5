package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/internal/textdoc"
)

// TestTrustFollowsWorkspaceFolders checks the trust gate's answers as the
// workspace folders change: a command on a file outside them fails before
// anything is built and says why, and once its folder is added it gets
// past the gate (to the lookup of a function that does not exist, so that
// nothing is built here either).
func TestTrustFollowsWorkspaceFolders(t *testing.T) {
	inside, outside := sampleModule(t, nil), sampleModule(t, nil)
	c := startServer(t, Options{})
	c.initializeIn(inside, fullClient, map[string]any{"allowCodeExecution": true})
	u, _ := openFile(c, filepath.Join(outside, "relu", "relu.go"))
	command := func() string {
		t.Helper()
		r := c.request("workspace/executeCommand", map[string]any{"command": CommandShowJaxpr, "arguments": []any{map[string]any{"uri": u, "function": "NoSuchFunction"}}})
		if r.Error == nil {
			t.Fatalf("showJaxpr of a missing function succeeded: %s", r.Result)
		}
		return r.Error.Message
	}
	if msg := command(); !strings.Contains(msg, "is outside the trusted workspace folders ("+inside+")") {
		t.Errorf("outside the folders: %q", msg)
	}
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": textdoc.FileURI(outside), "name": "outside"}}, "removed": []any{}}})
	if msg := command(); !strings.Contains(msg, "NoSuchFunction is not a traced top-level function") {
		t.Errorf("after adding the folder: %q", msg)
	}
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{}, "removed": []any{map[string]any{"uri": textdoc.FileURI(outside), "name": "outside"}}}})
	if msg := command(); !strings.Contains(msg, "is outside") {
		t.Errorf("after removing the folder: %q", msg)
	}
}

func TestTrustWithoutFolders(t *testing.T) {
	dir := sampleModule(t, nil)
	c := startServer(t, Options{})
	c.initialize(map[string]any{"allowCodeExecution": true})
	u, _ := openFile(c, filepath.Join(dir, "relu", "relu.go"))
	r := c.request("workspace/executeCommand", map[string]any{"command": CommandShowJaxpr, "arguments": []any{map[string]any{"uri": u, "function": "ReluWhere"}}})
	if r.Error == nil || !strings.Contains(r.Error.Message, "the editor named no workspace folder") {
		t.Errorf("trusted session without folders: %+v %s", r.Error, r.Result)
	}
}

// TestWithinFollowsSymlinks: a folder named through a symbolic link
// covers the files named through the link's target, and the other way.
func TestWithinFollowsSymlinks(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		folder, file string
		want         bool
	}{
		{real, filepath.Join(real, "x.go"), true},
		{link, filepath.Join(real, "x.go"), true},
		{real, filepath.Join(link, "x.go"), true},
		{real, filepath.Join(real+"2", "x.go"), false},
		{filepath.Join(real, "sub"), filepath.Join(real, "x.go"), false},
	} {
		if got := within(c.folder, c.file); got != c.want {
			t.Errorf("within(%s, %s) = %v, want %v", c.folder, c.file, got, c.want)
		}
	}
}
