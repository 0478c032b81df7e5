// Package lsptest has helpers shared by the jitls tests (lsp, cmd/jitls
// and internal/previewer) and by bench/lsp: a sample module in a temporary directory, a
// digest of a directory tree (to check that nothing in the workspace
// changed) and a raw JSON-RPC LSP client.
package lsptest

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// RepoRoot returns the root of this checkout (the module jitlint), found
// by walking up from the working directory to a go.mod declaring it.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(b), "module github.com/jitlint/jitlint\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no github.com/jitlint/jitlint go.mod above the working directory")
		}
		dir = parent
	}
}

// SampleModule copies testdata/lspmod into a temporary directory and writes
// its go.mod (requiring this checkout through a replace directive) and
// go.sum; extra files (relative path → content) are added.
func SampleModule(t testing.TB, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := WriteSampleModule(RepoRoot(t), dir, extra); err != nil {
		t.Fatal(err)
	}
	return dir
}

// WriteSampleModule writes the sample module into dir (see SampleModule);
// root is the checkout of github.com/jitlint/jitlint.
func WriteSampleModule(root, dir string, extra map[string]string) error {
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
		return fmt.Errorf("copying the sample module: %v", err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
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
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TreeDigest hashes every file (path, mode, content) under dir.
func TreeDigest(t testing.TB, dir string) string {
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
