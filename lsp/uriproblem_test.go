package lsp

import (
	"strings"
	"testing"
)

// TestURIProblem: a file: URI that names no local file gets one clear
// diagnostic; URIs jitls can handle (or leaves alone) get none.
func TestURIProblem(t *testing.T) {
	if uriProblem("untitled:Untitled-1", 1) != nil || uriProblem("file:///home/u/x.go", 1) != nil {
		t.Errorf("uriProblem reports a URI jitls can handle")
	}
	if p := uriProblem("file:///home/u/%ZZ/x.go", 3); len(p) != 1 || p[0].version != 3 || !strings.Contains(p[0].diag.Message, "%ZZ") {
		t.Errorf("uriProblem of a bad file: URI: %+v", p)
	}
}
