package main_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestJaxprDiff runs `jitlint jaxpr-diff` on the codelab: it traces for
// real (go test -c of the codelab with a generated harness).
func TestJaxprDiff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the codelab")
	}
	bin := buildJitlint(t)
	root := moduleRoot(t)
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, append([]string{"jaxpr-diff"}, args...)...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("./examples/codelab.Power", "2, f32[4]", "3, f32[4]")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"Power: equations 2 → 3; primitives mul 2→3\n",
		"--- Power(2, f32[4])\n+++ Power(3, f32[4])\n",
		"     c:f32[4] = mul b b\n-  in (c,) }\n+    d:f32[4] = mul c c\n+  in (d,) }\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, err = run("-json", "./examples/codelab.Model", "f32[4]", "f32[8]")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var d struct {
		Summary string
		Diff    string
		Jaxprs  [2]string
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if d.Summary != "inputs (f32[4]) → (f32[8]); outputs (f32[4]) → (f32[8]); 6 equations in both; same primitives" ||
		!strings.Contains(d.Diff, "-    b:f32[4] = tanh a\n") || !strings.Contains(d.Diff, "+    b:f32[8] = tanh a\n") ||
		!strings.HasPrefix(d.Jaxprs[1], "{ lambda ; a:f32[8]. let") {
		t.Errorf("Model diff: %+v", d)
	}
	out, err = run("./examples/codelab.Model", "f32[4], 3", "f32[8]")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 ||
		!strings.Contains(out, `signature 1 gives 2 argument(s) but Model has 1 parameter(s); e.g. "f32[8]"`) {
		t.Errorf("wrong signature: %v\n%s", err, out)
	}
	out, err = run("./examples/codelab.Nope", "f32[4]", "f32[8]")
	if err == nil || !strings.Contains(out, "Nope is not a top-level function of github.com/jitlint/jitlint/examples/codelab") || !strings.Contains(out, "Model") {
		t.Errorf("unknown function: %v\n%s", err, out)
	}
}
