package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

func TestVersionFlag(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-version"}, strings.NewReader(""), nopCloser{&out}, &errb); code != 0 {
		t.Fatalf("jitls -version exited %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "jitls ") {
		t.Errorf("version line %q", out.String())
	}
}

func TestBadArguments(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"serve"}, strings.NewReader(""), nopCloser{&out}, &errb); code != 2 || !strings.Contains(errb.String(), "takes only flags") {
		t.Errorf("jitls serve: code %d, stderr %q", code, errb.String())
	}
}

func TestStdioFlagAccepted(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-stdio", "-version"}, strings.NewReader(""), nopCloser{&out}, &errb); code != 0 {
		t.Errorf("jitls -stdio -version exited %d: %s", code, errb.String())
	}
}

// TestStdioSession runs a whole session through run's stdio path: nothing
// but LSP frames may appear on stdout, and the exit code follows LSP.
func TestStdioSession(t *testing.T) {
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	in := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`) +
		frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`) +
		frame(`{"jsonrpc":"2.0","method":"exit"}`)
	var out, errb bytes.Buffer
	code := run(nil, strings.NewReader(in), nopCloser{&out}, &errb)
	if code != 0 {
		t.Errorf("exit code %d after shutdown+exit; stderr %q", code, errb.String())
	}
	rest := out.String()
	for rest != "" {
		if !strings.HasPrefix(rest, "Content-Length: ") {
			t.Fatalf("stdout has something other than LSP frames: %q", rest)
		}
		var n int
		fmt.Sscanf(rest, "Content-Length: %d", &n)
		i := strings.Index(rest, "\r\n\r\n")
		rest = rest[i+4+n:]
	}
}
