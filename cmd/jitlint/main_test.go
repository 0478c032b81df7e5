package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The codelab's expected findings (docs/analyzers.md, "Expected results on
// the codelab"): each analyzer once, on the line that contains the text.
// Lines are found in the source, so that edits above them do not break the
// test; each text must occur exactly once in the package.
var codelabWant = []struct{ analyzer, text string }{
	{"traceeffect", `fmt.Printf("tracing with`},
	{"tracedbool", `if x.Gt(0).Bool() {`},
	{"unrolledloop", `for i := 0; i < steps; i++ {`},
	{"staticargs", `.Call(i, x)`},
	{"shapechurn", `.Call(x.Slice(`},
}

const codelab = "examples/codelab"

// moduleRoot is the repository root (two levels above this package).
func moduleRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// buildJitlint builds this command into a temporary directory.
func buildJitlint(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "jitlint")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -o %s: %v\n%s", bin, err, out)
	}
	return bin
}

// wantFindings returns "analyzer file:line" for each expected finding.
func wantFindings(t *testing.T, root string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, codelab, "*.go"))
	if err != nil || len(files) == 0 {
		t.Skipf("no Go files in %s (the codelab has not landed): %v", codelab, err)
	}
	var want []string
	for _, w := range codelabWant {
		var hits []string
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(data), "\n") {
				if strings.Contains(line, w.text) {
					hits = append(hits, fmt.Sprintf("%s %s:%d", w.analyzer, filepath.Base(f), i+1))
				}
			}
		}
		if len(hits) != 1 {
			t.Fatalf("the codelab should contain %q exactly once (for %s), found %d: %v", w.text, w.analyzer, len(hits), hits)
		}
		want = append(want, hits[0])
	}
	slices.Sort(want)
	return want
}

// jsonFindings decodes the -json output of the analysis drivers (one object
// per package: {pkg: {analyzer: [diagnostics] or {"error": ...}}}) into
// sorted, deduplicated "analyzer file:line" strings.
func jsonFindings(t *testing.T, out []byte) []string {
	t.Helper()
	// go vet prints "# pkg" headers between the JSON objects.
	var clean bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if !strings.HasPrefix(sc.Text(), "#") {
			clean.WriteString(sc.Text() + "\n")
		}
	}
	dec := json.NewDecoder(&clean)
	seen := map[string]bool{}
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("decoding JSON output: %v\n%s", err, out)
		}
		for pkg, byAnalyzer := range tree {
			for name, raw := range byAnalyzer {
				var diags []struct{ Posn string }
				if err := json.Unmarshal(raw, &diags); err != nil {
					t.Fatalf("%s: analyzer %s failed: %s", pkg, name, raw)
				}
				for _, d := range diags {
					// Posn is file:line:col.
					parts := strings.Split(d.Posn, ":")
					if len(parts) < 3 {
						t.Fatalf("bad position %q", d.Posn)
					}
					file := strings.Join(parts[:len(parts)-2], ":")
					seen[fmt.Sprintf("%s %s:%s", name, filepath.Base(file), parts[len(parts)-2])] = true
				}
			}
		}
	}
	var got []string
	for k := range seen {
		got = append(got, k)
	}
	slices.Sort(got)
	return got
}

func compare(t *testing.T, tool string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s on %s:\n got  %q\n want %q", tool, codelab, got, want)
	}
}

// TestCodelab runs the built jitlint on this whole module: the findings are
// exactly the codelab's expected ones. The intentional misuse in the
// module's own tests (the trace-time errors that the jit tests provoke) is
// suppressed with //jitlint:ignore directives, and a directive that no
// longer suppresses anything is itself a finding (directive).
func TestCodelab(t *testing.T) {
	if testing.Short() {
		t.Skip("builds jitlint and analyses the whole module")
	}
	root := moduleRoot(t)
	want := wantFindings(t, root)
	bin := buildJitlint(t)
	cmd := exec.Command(bin, "-json", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("jitlint -json ./...: %v\n%s", err, out)
	}
	compare(t, "jitlint ./... (the whole module)", jsonFindings(t, out), want)

	// Without -json, findings make the exit status 3.
	cmd = exec.Command(bin, "./"+codelab)
	cmd.Dir = root
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != 3 {
		t.Errorf("jitlint ./%s: exit status %v, want 3 (findings)", codelab, err)
	}
}

// TestGoVet runs the real go vet with the built jitlint as its vet tool.
func TestGoVet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds jitlint and runs go vet")
	}
	root := moduleRoot(t)
	want := wantFindings(t, root)
	bin := buildJitlint(t)
	cmd := exec.Command("go", "vet", "-vettool="+bin, "-json", "./"+codelab)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go vet -vettool=%s -json ./%s: %v\n%s", bin, codelab, err, out)
	}
	compare(t, "go vet -vettool=jitlint", jsonFindings(t, out), want)
}
