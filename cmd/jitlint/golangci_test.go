package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGolangciLint runs a golangci-lint built with the jitlint module
// plugin (scripts/golangci-check.sh builds one with golangci-lint custom
// and runs this test with JITLINT_GOLANGCI_LINT set to it) on the codelab,
// with scripts/golangci/.golangci.yml: exactly the expected findings.
func TestGolangciLint(t *testing.T) {
	bin := os.Getenv("JITLINT_GOLANGCI_LINT")
	if bin == "" {
		t.Skip("set JITLINT_GOLANGCI_LINT to a golangci-lint built with the plugin (scripts/golangci-check.sh does)")
	}
	root := moduleRoot(t)
	want := wantFindings(t, root)
	cmd := exec.Command(bin, "run", "--config", filepath.Join(root, "scripts", "golangci", ".golangci.yml"),
		"--output.json.path", "stdout", "--show-stats=false", "./"+codelab)
	cmd.Dir = root
	out, err := cmd.Output()
	// Exit status 1 means "issues found"; anything else is a failure.
	if err != nil && cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("%s run: %v\n%s", bin, err, out)
	}
	var report struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename string
				Line     int
			}
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("decoding golangci-lint's JSON: %v\n%s", err, out)
	}
	var got []string
	for _, is := range report.Issues {
		if is.FromLinter != "jitlint" {
			t.Errorf("finding from linter %q (the config enables only jitlint): %s", is.FromLinter, is.Text)
			continue
		}
		// The plugin's messages are "analyzer: message"; golangci-lint
		// reports a diagnostic's related information as issues of their own,
		// "analyzer(related information): ...".
		name, _, ok := strings.Cut(is.Text, ": ")
		if !ok {
			t.Errorf("finding without an analyzer name: %q", is.Text)
			continue
		}
		if strings.HasSuffix(name, "(related information)") {
			continue
		}
		got = append(got, fmt.Sprintf("%s %s:%d", name, filepath.Base(is.Pos.Filename), is.Pos.Line))
	}
	slices.Sort(got)
	compare(t, "golangci-lint with the jitlint plugin", got, want)
}
