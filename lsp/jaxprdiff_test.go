package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/internal/previewer"
)

// TestDiffJaxprCommand runs jitls.diffJaxpr on the sample's Power under two
// static counts, and checks its errors.
func TestDiffJaxprCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a preview harness")
	}
	dir := sampleModule(t, nil)
	before := treeDigest(t, dir)
	c := startServer(t, Options{})
	c.initializeIn(dir, fullClient, map[string]any{"allowCodeExecution": true})
	u, _ := openFile(c, filepath.Join(dir, "relu", "relu.go"))
	diff := func(fn string, sigs ...string) wireMsg {
		return c.request("workspace/executeCommand", map[string]any{"command": CommandDiffJaxpr,
			"arguments": []any{map[string]any{"uri": u, "function": fn, "signatures": sigs}}})
	}
	r := diff("Power", "2, f32[4]", "3, f32[8]")
	var d previewer.JaxprDiff
	if r.Error != nil || json.Unmarshal(r.Result, &d) != nil {
		t.Fatalf("diffJaxpr: %+v %s", r.Error, r.Result)
	}
	if d.Summary != "inputs (f32[4]) → (f32[8]); outputs (f32[4]) → (f32[8]); equations 2 → 3; primitives mul 2→3" {
		t.Errorf("summary: %s", d.Summary)
	}
	for _, want := range []string{"--- Power(2, f32[4])\n+++ Power(3, f32[8])\n", "-    c:f32[4] = mul b b\n", "+    d:f32[8] = mul c c\n"} {
		if !strings.Contains(d.Diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, d.Diff)
		}
	}
	if !strings.Contains(d.Jaxprs[0], "mul") || d.Specs != [2]string{"2, f32[4]", "3, f32[8]"} {
		t.Errorf("result: %+v", d)
	}
	// The same signature twice: no diff.
	r = diff("ReluWhere", "f32[5]", "f32[5]")
	if r.Error != nil || json.Unmarshal(r.Result, &d) != nil || d.Diff != "" || !strings.HasSuffix(d.Summary, "identical jaxprs") {
		t.Errorf("same signatures: %+v %s", r.Error, r.Result)
	}
	// A signature that does not fit, and a malformed one.
	if r := diff("Power", "f32[4]", "3, f32[4]"); r.Error == nil || !strings.Contains(r.Error.Message, "signature 1 gives 1 argument(s) but Power has 2") {
		t.Errorf("wrong arity: %+v", r.Error)
	}
	if r := diff("Power", "3, f32[4", "3, f32[4]"); r.Error == nil || !strings.Contains(r.Error.Message, `signature 1 "3, f32[4"`) {
		t.Errorf("malformed: %+v", r.Error)
	}
	if after := treeDigest(t, dir); after != before {
		t.Error("the diff changed the workspace")
	}
}
