package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestFixDiffApplies runs jitlint -fix -diff on a file with many fixes
// (wherenan's fixture, whose hunks hold several edits) and checks the diff
// against the file jitlint -fix writes: every hunk's new-file lines are
// where its header says, so patch -R applies it to the fixed file exactly,
// and patch applies it to the original without offset or fuzz.
func TestFixDiffApplies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds jitlint and runs it on a module")
	}
	root := moduleRoot(t)
	bin := buildJitlint(t)
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(root, "testdata", "wherenan", "a", "a.go"))
	if err != nil {
		t.Fatal(err)
	}
	orig := strings.Replace(string(src), "package a", "package main", 1) + "\nfunc main() {}\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"go.mod":  "module fixdiff\n\ngo 1.26.0\n\nrequire github.com/jitlint/jitlint v0.0.0\n\nreplace github.com/jitlint/jitlint => " + root + "\n",
		"go.sum":  string(sum),
		"main.go": orig,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) string {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("jitlint %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	diff := run("-fix", "-diff", ".")
	if strings.Count(diff, "\n@@ ") < 3 {
		t.Fatalf("jitlint -fix -diff: want several hunks, got:\n%s", diff)
	}
	run("-fix", ".")
	fixed, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	checkHunks(t, diff, strings.Split(orig, "\n"), strings.Split(string(fixed), "\n"))

	if _, err := exec.LookPath("patch"); err != nil {
		t.Log("no patch(1) here: checked the hunks only")
		return
	}
	local := strings.NewReplacer(filepath.Join(dir, "main.go")+" (old)", "main.go", filepath.Join(dir, "main.go")+" (new)", "main.go").Replace(diff)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("patch", "-p0", "--dry-run", "--verbose")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(local)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "offset") || strings.Contains(string(out), "fuzz") {
		t.Errorf("patch --dry-run: %v\n%s", err, out)
	}
}

// checkHunks checks that each hunk's old lines are at its old range in old
// and its new lines at its new range in new.
func checkHunks(t *testing.T, diff string, old, new []string) {
	t.Helper()
	var oldAt, newAt int
	for _, line := range strings.Split(diff, "\n") {
		if m := hunkAt.FindStringSubmatch(line); m != nil {
			oldAt, newAt = startOf(m[1], m[2]), startOf(m[3], m[4])
			continue
		}
		if line == "" || strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "+++ ") {
			continue
		}
		kind, text := line[0], line[1:]
		if kind != '+' {
			if oldAt >= len(old) || old[oldAt] != text {
				t.Fatalf("old line %d is not %q", oldAt+1, text)
			}
			oldAt++
		}
		if kind != '-' {
			if newAt >= len(new) || new[newAt] != text {
				t.Fatalf("new line %d is not %q (the hunk header is off)", newAt+1, text)
			}
			newAt++
		}
	}
}

var hunkAt = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// startOf is the 0-based index of a hunk range's first line (an empty
// range names the line before it).
func startOf(start, n string) int {
	s, _ := strconv.Atoi(start)
	if n == "0" {
		return s
	}
	return s - 1
}
