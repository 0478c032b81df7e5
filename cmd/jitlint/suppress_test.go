package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// suppressWant reads testdata/suppress/findings.txt: the findings every
// driver must report on the suppression fixtures.
func suppressWant(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "testdata", "suppress", "findings.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			want = append(want, line)
		}
	}
	slices.Sort(want)
	return want
}

// TestSuppressDrivers runs jitlint and go vet -vettool=jitlint on the
// suppression fixtures (in the fixtures module, testdata/): both report
// exactly the findings that the directives leave, and the directive
// analyzer's reports, which -directive=false turns off.
func TestSuppressDrivers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds jitlint and runs go vet")
	}
	want := suppressWant(t)
	bin := buildJitlint(t)
	fixtures := filepath.Join(moduleRoot(t), "testdata")
	env := append(os.Environ(), "GOPROXY=off", "GOWORK=off")
	for _, tc := range []struct {
		tool string
		args []string
	}{
		{"jitlint", []string{bin, "-json", "./suppress/..."}},
		{"go vet -vettool=jitlint", []string{"go", "vet", "-vettool=" + bin, "-json", "./suppress/..."}},
	} {
		cmd := exec.Command(tc.args[0], tc.args[1:]...)
		cmd.Dir, cmd.Env = fixtures, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(tc.args, " "), err, out)
		}
		if got := jsonFindings(t, out); !slices.Equal(got, want) {
			t.Errorf("%s on testdata/suppress:\n got  %q\n want %q", tc.tool, got, want)
		}
	}
	cmd := exec.Command(bin, "-json", "-directive=false", "./suppress/...")
	cmd.Dir, cmd.Env = fixtures, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("jitlint -directive=false: %v\n%s", err, out)
	}
	for _, f := range jsonFindings(t, out) {
		if strings.HasPrefix(f, "directive ") {
			t.Errorf("jitlint -directive=false reported %s", f)
		}
	}
}
