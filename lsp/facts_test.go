package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/textdoc"
)

// TestFactsFromDependencies: a finding that only the facts of another
// package show (traced code calls helpers.Positive, which converts its
// array argument to bool) is reported, and goes away when the dependency
// is fixed on disk (the facts are keyed by content, so the saved file is
// analysed again).
func TestFactsFromDependencies(t *testing.T) {
	dir := sampleModule(t, map[string]string{
		"helpers/helpers.go": "package helpers\n\nimport \"github.com/jitlint/jitlint/jit\"\n\n// Positive reports whether x's first element is positive.\nfunc Positive(x jit.Array) bool { return x.Gt(0).Bool() }\n",
		"use/use.go":         "package use\n\nimport (\n\t\"example.com/lspmod/helpers\"\n\t\"github.com/jitlint/jitlint/jit\"\n)\n\nfunc F(x jit.Array) jit.Array {\n\tif helpers.Positive(x) {\n\t\treturn x\n\t}\n\treturn x.Mul(0)\n}\n\nvar f = jit.Jit(F)\n",
	})
	c := startServer(t, Options{Analyzers: jitlintSuite})
	c.initialize(nil)
	u, _ := openFile(c, filepath.Join(dir, "use", "use.go"))
	d := c.diagsFor(u, "the finding through helpers.Positive's facts", func(d []protocol.Diagnostic) bool { return len(d) == 1 })[0]
	if d.Code != "tracedbool" || !strings.Contains(d.Message, "helpers.Positive receives a traced value here") || d.Range.Start.Line != 8 {
		t.Errorf("finding through facts: %+v", d)
	}

	helpers := filepath.Join(dir, "helpers", "helpers.go")
	// Still a bool, now from a static property: use.go is unchanged and
	// well-typed, so only new facts can clear its finding.
	fixed := "package helpers\n\nimport \"github.com/jitlint/jitlint/jit\"\n\n// Positive reports whether x has dimensions.\nfunc Positive(x jit.Array) bool { return x.Ndim() > 0 }\n"
	if err := os.WriteFile(helpers, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Clear()
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": string(textdoc.FileURI(helpers)), "type": 2}}})
	c.diagsFor(u, "no finding once helpers is fixed on disk", func(d []protocol.Diagnostic) bool { return len(d) == 0 })
}

// TestChooserFactsFromLocalPackage: jitls computes the facts of a package
// of the workspace's module that does not import jit but declares a bucket
// chooser (traced.NeedsFacts, as the jitlint command and go vet do), so a
// static argument from sched.Plateau (three values) is not churn while one
// from sched.Decay (a new value every step) is.
func TestChooserFactsFromLocalPackage(t *testing.T) {
	dir := sampleModule(t, map[string]string{
		"sched/sched.go": "package sched\n\n// Plateau returns the learning rate of an epoch.\nfunc Plateau(epoch int) float64 {\n\tswitch {\n\tcase epoch < 2:\n\t\treturn 0.1\n\tcase epoch < 4:\n\t\treturn 0.03\n\t}\n\treturn 0.01\n}\n\n// Decay decays base per step.\nfunc Decay(base float64, step int) float64 {\n\tfor range step {\n\t\tbase *= 0.99\n\t}\n\treturn base\n}\n",
		"use/use.go":     "package use\n\nimport (\n\t\"example.com/lspmod/sched\"\n\t\"github.com/jitlint/jitlint/jit\"\n)\n\nfunc Scale(lr float64, x jit.Array) jit.Array { return x.Mul(lr) }\n\nvar scale = jit.Jit(Scale, jit.StaticArgnums(0))\n\nfunc Train(x jit.Array) {\n\tfor epoch := range 30 {\n\t\tscale.Call(sched.Plateau(epoch), x)\n\t}\n\tfor step := range 30 {\n\t\tscale.Call(sched.Decay(0.1, step), x)\n\t}\n}\n",
	})
	c := startServer(t, Options{Analyzers: jitlintSuite})
	c.initialize(nil)
	u, _ := openFile(c, filepath.Join(dir, "use", "use.go"))
	d := c.diagsFor(u, "the decay's churn only", func(d []protocol.Diagnostic) bool { return len(d) == 1 })[0]
	if d.Code != "staticargs" || d.Range.Start.Line != 16 {
		t.Errorf("want one staticargs finding at line 17 (sched.Decay), got %+v", d)
	}
}
