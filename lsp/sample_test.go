package lsp

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoRoot returns the root of this checkout (the module jitlint).
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("cannot find the repository root above the lsp package: %v", err)
	}
	return root
}

// sampleModule copies testdata/lspmod into a temporary directory and writes
// its go.mod (requiring this checkout through a replace directive) and
// go.sum; extra files (relative path → content) are added.
func sampleModule(t testing.TB, extra map[string]string) string {
	t.Helper()
	root := repoRoot(t)
	dir := t.TempDir()
	src := filepath.Join(root, "lsp", "testdata", "lspmod")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// Require everything jitlint requires, so the sample builds offline.
	var reqs []string
	for _, m := range regexp.MustCompile(`(?m)^\s+(\S+) (v\S+)`).FindAllStringSubmatch(string(gomod), -1) {
		reqs = append(reqs, "\t"+m[1]+" "+m[2])
	}
	mod := fmt.Sprintf("module example.com/lspmod\n\ngo 1.26.0\n\nrequire (\n\tgithub.com/jitlint/jitlint v0.0.0\n%s\n)\n\nreplace github.com/jitlint/jitlint => %s\n",
		strings.Join(reqs, "\n"), root)
	files := map[string]string{"go.mod": mod}
	if sum, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		files["go.sum"] = string(sum)
	}
	for k, v := range extra {
		files[k] = v
	}
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// treeDigest hashes every file (path, mode, content) under dir.
func treeDigest(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s %v %d %d\n", rel, info.Mode(), info.Size(), info.ModTime().UnixNano())
		if !d.IsDir() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestSampleModuleBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the sample module")
	}
	dir := sampleModule(t, nil)
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet in the sample module: %v\n%s", err, out)
	}
}
