package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jitlint/jitlint/lsp"
	"github.com/jitlint/jitlint/lsp/lsptest"
)

// agreeFiles add to the sample module what jitlint reports on beyond
// ordinary files: a finding in an in-package test file, one in an external
// test package, and one that only facts find (a traced function in package
// use calls helpers.Positive, which converts its array argument to bool).
var agreeFiles = map[string]string{
	"relu/relu_test.go": `package relu

import (
	"testing"

	"github.com/jitlint/jitlint/jit"
)

func clampTest(x jit.Array) jit.Array {
	if x.Gt(1).Bool() {
		return x
	}
	return x.Mul(0)
}

var clampTestJit = jit.Jit(clampTest)

func TestClamp(t *testing.T) {}
`,
	"relu/ext_test.go": `package relu_test

import (
	"testing"

	"example.com/lspmod/relu"
	"github.com/jitlint/jitlint/jit"
)

func extBad(x jit.Array) jit.Array {
	if x.Lt(0).Bool() {
		return relu.ReluWhere(x)
	}
	return x
}

var extBadJit = jit.Jit(extBad)

func TestExt(t *testing.T) {}
`,
	"helpers/helpers.go": `// Package helpers has a function that converts its array argument to a
// Go bool: harmless here, wrong when traced code calls it.
package helpers

import "github.com/jitlint/jitlint/jit"

// Positive reports whether x's first element is positive.
func Positive(x jit.Array) bool { return x.Gt(0).Bool() }
`,
	"use/use.go": `package use

import (
	"example.com/lspmod/helpers"
	"github.com/jitlint/jitlint/jit"
)

// F calls helpers.Positive with a traced value.
func F(x jit.Array) jit.Array {
	if helpers.Positive(x) {
		return x
	}
	return x.Mul(0)
}

var f = jit.Jit(F)
`,
}

// TestEditorAgreesWithJitlint runs jitlint -json ./... and the server on
// the same module and compares the findings file by file: the server's,
// for every Go file opened in it, must be exactly jitlint's (test files
// and findings through facts included).
func TestEditorAgreesWithJitlint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds jitlint and analyses a module both ways")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "jitlint")
	if out, err := exec.Command("go", "build", "-o", bin, "../jitlint").CombinedOutput(); err != nil {
		t.Fatalf("building jitlint: %v\n%s", err, out)
	}
	dir := lsptest.SampleModule(t, agreeFiles)
	cmd := exec.Command(bin, "-json", "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("jitlint -json ./...: %v\n%s", err, out)
	}
	want := jitlintFindings(t, dir, out)

	got := map[string][]string{}
	c := startInProcess(t)
	var files []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file://" + path, "languageId": "go", "version": 1, "text": string(b)}})
	}
	for _, path := range files {
		m, err := c.Request("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": "file://" + path}})
		if err != nil || m.Error != nil {
			t.Fatalf("textDocument/diagnostic for %s: %v %+v", path, err, m.Error)
		}
		var rep struct {
			Items []struct {
				Range struct {
					Start struct{ Line, Character int } `json:"start"`
				} `json:"range"`
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"items"`
		}
		if err := json.Unmarshal(m.Result, &rep); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, path)
		for _, d := range rep.Items {
			if d.Code == "jitargs" { // jitls's own directive check, not a jitlint analyzer
				continue
			}
			got[rel] = append(got[rel], fmt.Sprintf("%d:%d %s: %s", d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, d.Message))
		}
		slices.Sort(got[rel])
	}
	for _, rel := range []string{"relu/relu_test.go", "relu/ext_test.go", "use/use.go"} {
		if len(want[rel]) == 0 {
			t.Errorf("the test module is wrong: jitlint reports nothing in %s", rel)
		}
	}
	for _, path := range files {
		rel, _ := filepath.Rel(dir, path)
		if !slices.Equal(got[rel], want[rel]) {
			t.Errorf("%s:\njitlint: %q\njitls:   %q", rel, want[rel], got[rel])
		}
	}
}

// jitlintFindings decodes jitlint -json output into "line:col analyzer:
// message" strings per file (relative to dir), sorted and deduplicated
// (a package and its test variant report the same findings).
func jitlintFindings(t *testing.T, dir string, out []byte) map[string][]string {
	dec := json.NewDecoder(bytes.NewReader(out))
	seen := map[string]map[string]bool{}
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("decoding jitlint -json: %v\n%s", err, out)
		}
		for pkg, byAnalyzer := range tree {
			for name, raw := range byAnalyzer {
				var diags []struct{ Posn, Message string }
				if err := json.Unmarshal(raw, &diags); err != nil {
					t.Fatalf("%s: analyzer %s failed: %s", pkg, name, raw)
				}
				for _, d := range diags {
					i := strings.LastIndex(d.Posn, ":")
					j := strings.LastIndex(d.Posn[:i], ":")
					rel, _ := filepath.Rel(dir, d.Posn[:j])
					if seen[rel] == nil {
						seen[rel] = map[string]bool{}
					}
					seen[rel][fmt.Sprintf("%s:%s %s: %s", d.Posn[j+1:i], d.Posn[i+1:], name, d.Message)] = true
				}
			}
		}
	}
	want := map[string][]string{}
	for rel, set := range seen {
		for k := range set {
			want[rel] = append(want[rel], k)
		}
		slices.Sort(want[rel])
	}
	return want
}

// startInProcess serves the jitls analyzers in this process over pipes to
// a pull-diagnostics client that shows related information itself.
func startInProcess(t *testing.T) *lsptest.Client {
	cr, cw := io.Pipe()
	sr, sw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- lsp.New(lsp.Options{Analyzers: analyzerSuite}).Run(context.Background(), stdio{cr, sw})
	}()
	t.Cleanup(func() {
		cw.Close()
		<-done
	})
	c := lsptest.NewClient(cw, sr, 2*time.Minute)
	m, err := c.Request("initialize", map[string]any{"capabilities": map[string]any{"textDocument": map[string]any{
		"diagnostic": map[string]any{}, "publishDiagnostics": map[string]any{"relatedInformation": true},
	}}})
	if err != nil || m.Error != nil {
		t.Fatalf("initialize: %v %+v", err, m.Error)
	}
	c.Notify("initialized", map[string]any{})
	return c
}
