package golangci_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsShowTheCIConfigs: docs/analyzers.md shows, verbatim, the
// .custom-gcl.yml and .golangci.yml that scripts/golangci-check.sh builds
// and runs golangci-lint with.
func TestDocsShowTheCIConfigs(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "analyzers.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".custom-gcl.yml", ".golangci.yml"} {
		cfg, err := os.ReadFile(filepath.Join(root, "scripts", "golangci", name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), "```yaml\n"+string(cfg)+"```\n") {
			t.Errorf("docs/analyzers.md does not show scripts/golangci/%s verbatim in a yaml block", name)
		}
	}
}
