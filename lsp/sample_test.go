package lsp

import (
	"os/exec"
	"testing"

	"github.com/jitlint/jitlint/lsp/lsptest"
)

func sampleModule(t testing.TB, extra map[string]string) string {
	return lsptest.SampleModule(t, extra)
}

func treeDigest(t testing.TB, dir string) string { return lsptest.TreeDigest(t, dir) }

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
