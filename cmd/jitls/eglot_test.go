package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/lsp/lsptest"
)

// TestEglotEndToEnd drives Emacs 28 with eglot 1.9 and go-mode (Debian's
// emacs-nox, elpa-eglot and elpa-go-mode) through testdata/eglot-e2e.el:
// diagnostics (with the related information eglot cannot show folded into
// the message), the quick fix applied by eglot's workspace-edit code, a
// plaintext hover (eglot without markdown-mode asks for plaintext), the
// lenses' commands, and shutdown with exit status 0.
func TestEglotEndToEnd(t *testing.T) {
	emacs, err := exec.LookPath("emacs")
	if err == nil {
		err = exec.Command(emacs, "--batch", "--no-init-file", "--eval", "(progn (require 'eglot) (require 'go-mode))").Run()
	}
	if err != nil {
		if os.Getenv("JITLS_E2E") == "1" {
			t.Fatalf("JITLS_E2E=1 but Emacs with eglot and go-mode is not available (%v): apt-get install -y emacs-nox elpa-eglot elpa-go-mode", err)
		}
		t.Skipf("Emacs with eglot and go-mode not available (%v); set JITLS_E2E=1 to make this a failure", err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "jitls")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building jitls: %v\n%s", err, out)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "eglot-e2e.el"))
	if err != nil {
		t.Fatal(err)
	}
	dir := lsptest.SampleModule(t, nil)
	before := lsptest.TreeDigest(t, dir)
	result, logFile := filepath.Join(tmp, "result.json"), filepath.Join(tmp, "jitls.log")
	// Emacs gets a home of its own (it writes ~/.emacs.d); the go command
	// run by jitls keeps the real build and module caches.
	goEnv, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	vals := strings.Split(strings.TrimSpace(string(goEnv)), "\n")
	if len(vals) != 3 {
		t.Fatalf("go env printed %q", goEnv)
	}
	cmd := exec.Command(emacs, "--batch", "--no-init-file", "-l", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(tmp, "home"), "GOCACHE="+vals[0], "GOMODCACHE="+vals[1], "GOPATH="+vals[2],
		"JITLS_BIN="+bin, "JITLS_FILE="+filepath.Join(dir, "relu", "relu.go"), "JITLS_RESULT="+result, "JITLS_LOG="+logFile)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("emacs: %v\n%s", err, out)
	}
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("emacs wrote no result (%v); its output:\n%s", err, out)
	}
	t.Logf("eglot saw: %s", data)
	var res struct {
		Connected    bool     `json:"connected"`
		Diagnostic   string   `json:"diagnostic"`
		Line         int      `json:"line"`
		Actions      []string `json:"actions"`
		Buffer       string   `json:"buffer"`
		Cleared      bool     `json:"cleared"`
		HoverKind    string   `json:"hover_kind"`
		Hover        string   `json:"hover"`
		Lenses       int      `json:"lenses"`
		LensFunction string   `json:"lens_function"`
		LensJaxpr    string   `json:"lens_jaxpr"`
		ExitStatus   *int     `json:"exit_status"`
		LispError    string   `json:"lisp_error"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	defer func() {
		if b, err := os.ReadFile(logFile); err == nil && t.Failed() {
			t.Logf("jitls log:\n%s\nemacs output:\n%s", b, out)
		}
	}()
	if res.LispError != "" {
		t.Fatalf("the Emacs Lisp script failed: %s", res.LispError)
	}
	if !res.Connected || !strings.HasPrefix(res.Diagnostic, "jitls [tracedbool]: x.Gt(0).Bool()") || res.Line != 10 {
		t.Fatalf("no tracedbool diagnostic on line 10 of relu.go: %+v", res)
	}
	// eglot 1.9 does not announce relatedInformation: the line that says
	// why ReluBad is traced is in the message.
	if !strings.Contains(res.Diagnostic, "\nrelu.go:34: ReluBad is traced by this jit.Jit call") {
		t.Errorf("diagnostic without the folded related information:\n%s", res.Diagnostic)
	}
	if len(res.Actions) != 2 || !strings.Contains(res.Actions[1], "//jitlint:ignore") {
		t.Errorf("code actions %q, want the analyzer's fix and the ignore fix", res.Actions)
	}
	if !strings.Contains(res.Buffer, "return jit.Where(x.Gt(0), x, x.Mul(0))") || strings.Contains(res.Buffer, ".Bool()") || !res.Cleared {
		t.Errorf("after the quick fix (cleared=%v):\n%s", res.Cleared, res.Buffer)
	}
	if res.HoverKind != "plaintext" || !strings.Contains(res.Hover, "{ lambda ; a:f32[5]. let") || strings.ContainsAny(res.Hover, "`*") {
		t.Errorf("hover (%s) should be plaintext with the jaxpr:\n%s", res.HoverKind, res.Hover)
	}
	if res.Lenses != 6 || res.LensFunction != "ReluBad" || !strings.Contains(res.LensJaxpr, "select_n") {
		t.Errorf("lenses: %d, jitls.showJaxpr gave %q:\n%s", res.Lenses, res.LensFunction, res.LensJaxpr)
	}
	if res.ExitStatus == nil || *res.ExitStatus != 0 {
		t.Errorf("jitls exit status after shutdown and exit: %v, want 0", res.ExitStatus)
	}
	if after := lsptest.TreeDigest(t, dir); after != before {
		t.Errorf("the workspace changed during the eglot session")
	}
}
