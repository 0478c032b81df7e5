package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jitlint/jitlint/lsp/lsptest"
	"go.lsp.dev/uri"
)

// TestMain removes the jitls binary the stdio tests share.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// built is the jitls binary of this checkout, built once for the tests
// that drive it over stdio.
var built struct {
	once      sync.Once
	dir, path string
	err       error
	out       []byte
}

// jitlsBinary returns the path of a jitls built from this checkout.
func jitlsBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "jitls-stdio-test-")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "jitls")
		built.out, built.err = exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("building jitls: %v\n%s", built.err, built.out)
	}
	return built.path
}

// stdioServer is a jitls process that a test drives over its stdin and
// stdout, as an editor does.
type stdioServer struct {
	*lsptest.Client
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	tmp    string        // the server's TMPDIR
	exited chan struct{} // closed when the process has ended
}

// stdioTimeout bounds every wait for the server (a hang is a failure, not
// a timing assertion).
const stdioTimeout = 3 * time.Minute

// startStdio starts jitls with TMPDIR set to tmp (a new directory when
// "") and env added to the test's environment.
func startStdio(t *testing.T, tmp string, env ...string) *stdioServer {
	t.Helper()
	if tmp == "" {
		tmp = t.TempDir()
	}
	cmd := exec.Command(jitlsBinary(t), "-logfile", filepath.Join(t.TempDir(), "jitls.log"))
	cmd.Env = append(append(os.Environ(), "TMPDIR="+tmp), env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &stdioServer{Client: lsptest.NewClient(stdin, stdout, stdioTimeout), t: t, cmd: cmd, stdin: stdin, tmp: tmp, exited: make(chan struct{})}
	go func() {
		cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-s.exited
		// What a failing test leaves running would outlive it.
		killMentioning(tmp)
	})
	return s
}

// initialize performs the initialize handshake with caps, naming folder
// (if not "") as the one workspace folder.
func (s *stdioServer) initialize(folder string, caps, initOpts map[string]any) {
	s.t.Helper()
	params := map[string]any{"processId": nil, "rootUri": nil, "capabilities": caps, "initializationOptions": initOpts}
	if folder != "" {
		u := string(uri.File(folder))
		params["rootUri"] = u
		params["workspaceFolders"] = []any{map[string]any{"uri": u, "name": filepath.Base(folder)}}
	}
	m, err := s.Request("initialize", params)
	if err != nil || m.Error != nil {
		s.t.Fatalf("initialize: %v %+v", err, m.Error)
	}
	s.Notify("initialized", map[string]any{})
}

// open sends didOpen for path with its content on disk and returns its URI
// and text.
func (s *stdioServer) open(path string) (string, string) {
	s.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	u := string(uri.File(path))
	s.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "go", "version": 1, "text": string(b)}})
	return u, string(b)
}

// waitExit waits for the process to end.
func (s *stdioServer) waitExit() {
	s.t.Helper()
	select {
	case <-s.exited:
	case <-time.After(stdioTimeout):
		s.t.Fatalf("jitls did not exit")
	}
}
