package main_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// codelabCopy copies the codelab into a module of its own (which uses this
// checkout's jit) and returns the module's directory and the codelab's.
func codelabCopy(t *testing.T) (string, string) {
	t.Helper()
	mod := fixtureModule(t)
	dir := filepath.Join(mod, "codelab")
	copyDir(t, filepath.Join(moduleRoot(t), codelab), dir)
	// The codelab links what jit links (the GPU backend's purego too).
	sum, err := os.ReadFile(filepath.Join(moduleRoot(t), "go.sum"))
	if err == nil {
		err = os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return mod, dir
}

// buildCodelab builds the codelab of the module mod.
func buildCodelab(t *testing.T, mod string) string {
	t.Helper()
	prog := filepath.Join(t.TempDir(), "codelab")
	build := exec.Command("go", "build", "-o", prog, "./codelab")
	build.Dir, build.Env = mod, offline()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./codelab: %v\n%s", err, out)
	}
	return prog
}

// runSteps runs steps of the codelab prog, each a process of its own, with
// JITLINT_EVENTS naming one new file, which it returns.
func runSteps(t *testing.T, prog string, steps ...string) string {
	t.Helper()
	events := filepath.Join(t.TempDir(), "events.jsonl")
	for _, step := range steps {
		run := exec.Command(prog, "-step", step)
		run.Env = append(os.Environ(), "JITLINT_EVENTS="+events)
		if out, err := run.CombinedOutput(); err != nil {
			t.Fatalf("codelab -step %s: %v\n%s", step, err, out)
		}
	}
	return events
}

// lineOf returns the 1-based line of file that contains text (once).
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, text) {
			lines = append(lines, i+1)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("%s should contain %q once, found it at lines %v", file, text, lines)
	}
	return lines[0]
}

// jsonResult is a finding of -format=json with where it is.
type jsonResult struct {
	analyzer, file string
	line           int
	message        string
	runtime        string
	props          map[string]any
}

// decodeJSON decodes jitlint -format=json output into its findings.
func decodeJSON(t *testing.T, out []byte) []jsonResult {
	t.Helper()
	var tree map[string]map[string]json.RawMessage
	if len(out) == 0 {
		return nil
	}
	if err := json.Unmarshal(out, &tree); err != nil {
		t.Fatalf("decoding -format=json: %v\n%s", err, out)
	}
	var rs []jsonResult
	for pkg, byAnalyzer := range tree {
		for name, raw := range byAnalyzer {
			var diags []struct {
				Posn, Message, Runtime string
				Properties             map[string]any
			}
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Fatalf("%s: analyzer %s failed: %s", pkg, name, raw)
			}
			for _, d := range diags {
				parts := strings.Split(d.Posn, ":")
				var line int
				fmt.Sscan(parts[len(parts)-2], &line)
				rs = append(rs, jsonResult{name, filepath.Base(strings.Join(parts[:len(parts)-2], ":")), line, d.Message, d.Runtime, d.Properties})
			}
		}
	}
	return rs
}

// runJitlint runs the built jitlint in dir and returns its stdout, stderr
// and exit status.
func runJitlint(t *testing.T, bin, dir string, args ...string) ([]byte, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = offline()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("jitlint %s: %v", strings.Join(args, " "), err)
	}
	return out, stderr.String(), cmd.ProcessState.ExitCode()
}

// TestEvents runs steps of the codelab with JITLINT_EVENTS (each step a
// process of its own; steps 5, 6 and 8 append to one file, step 3 writes
// another), then jitlint -events with both files:
// the recompiles are reported at their call sites with their counts and
// causes, the trace failure at its line, and the codelab's findings are
// confirmed (the recompiling calls, the Bool on a traced value), exercised
// (the Printf in a function that was traced) or not exercised (the steps
// that did not run). After an edit of one file, its events are stale.
func TestEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the codelab and jitlint")
	}
	mod, dir := codelabCopy(t)
	bin := buildJitlint(t)
	prog := buildCodelab(t, mod)
	events, events3 := runSteps(t, prog, "5", "6", "8"), runSteps(t, prog, "3")

	file := func(name string) string { return filepath.Join(dir, name) }
	step5 := lineOf(t, file("step5_recompile.go"), ".Call(x.Slice(")
	step8 := lineOf(t, file("step8_padding.go"), ".Call(i, x)")
	boolLine := lineOf(t, file("step6_control_flow.go"), "if x.Gt(0).Bool() {")
	out, stderr, code := runJitlint(t, bin, mod, "-format=json", "-events", events, "-events", events3, "./codelab")
	if code != 0 {
		t.Fatalf("jitlint -format=json -events: exit %d\n%s", code, stderr)
	}
	var got []string
	for _, r := range decodeJSON(t, out) {
		switch r.analyzer {
		case "recompiles", "tracefailures", "staleevents":
			got = append(got, fmt.Sprintf("%s %s:%d: %s %v", r.analyzer, r.file, r.line, r.message, r.props["compiles"]))
		default:
			got = append(got, fmt.Sprintf("%s %s:%d: %s", r.analyzer, r.file, r.line, r.runtime))
		}
	}
	// The codelab's findings (main_test.go) with what steps 3, 5, 6 and 8 did.
	verdict := map[string]string{"shapechurn": "confirmed", "staticargs": "confirmed", "tracedbool": "confirmed",
		"traceeffect": "exercised", "batchedcond": "exercised"} // step 6 jits the function with the jit.Cond
	want := []string{
		fmt.Sprintf("recompiles step5_recompile.go:%d: 3 compiles in 5 calls: x f32[100] → f32[200] → f32[300] 3", step5),
		fmt.Sprintf("recompiles step8_padding.go:%d: 3 compiles in 3 calls: n 2 → 4 → 5 → 6 3", step8),
		fmt.Sprintf("tracefailures step6_control_flow.go:%d: the trace of ReluBad failed here in the run: "+
			"TracerBoolConversionError: Attempted boolean conversion of traced array with shape bool[5]. <nil>", boolLine),
	}
	for _, w := range wantFindings(t, moduleRoot(t)) {
		analyzer, _, _ := strings.Cut(w, " ")
		want = append(want, fmt.Sprintf("%s: %s", w, cmp.Or(verdict[analyzer], "not exercised")))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("jitlint -format=json -events:\n got  %q\n want %q", got, want)
	}

	// Text: the verdict is a suffix of the message; findings exit 3.
	_, text, code := runJitlint(t, bin, mod, "-events", events, "-events", events3, "./codelab")
	if code != 3 || !strings.Contains(text, fmt.Sprintf("step8_padding.go:%d:16: static argument n", step8)) ||
		!strings.Contains(text, "(the run: confirmed)\n") || !strings.Contains(text, "(the run: not exercised)\n") {
		t.Errorf("jitlint -events (text): exit %d\n%s", code, text)
	}

	// An edit of step8_padding.go: its events are stale, not matched by line.
	src, err := os.ReadFile(file("step8_padding.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file("step8_padding.go"), append([]byte("// An edit above the code moves its lines.\n"), src...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = runJitlint(t, bin, mod, "-format=json", "-events", events, "-events", events3, "./codelab")
	if code != 0 {
		t.Fatalf("jitlint -format=json -events after an edit: exit %d\n%s", code, stderr)
	}
	var stale []string
	for _, r := range decodeJSON(t, out) {
		if r.file == "step8_padding.go" || r.analyzer == "staleevents" {
			stale = append(stale, fmt.Sprintf("%s %s:%d %s", r.analyzer, r.file, r.line, r.runtime))
		}
	}
	slices.Sort(stale)
	wantStale := []string{"staleevents step8_padding.go:1 ", fmt.Sprintf("staticargs step8_padding.go:%d stale", step8+1)}
	if !slices.Equal(stale, wantStale) {
		t.Errorf("after an edit of step8_padding.go:\n got  %q\n want %q", stale, wantStale)
	}
}

// TestBaseline: findings that a -format=json file lists stay quiet, also
// after an edit moves their lines; a new one fails the run, also when it
// repeats an accepted message in the same file (each accepted finding
// accepts one).
func TestBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs jitlint")
	}
	mod, dir := codelabCopy(t)
	bin := buildJitlint(t)
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	out, stderr, code := runJitlint(t, bin, mod, "-format=json", "./codelab")
	if code != 0 || len(decodeJSON(t, out)) != len(codelabWant) {
		t.Fatalf("jitlint -format=json: exit %d, %d findings, want %d\n%s", code, len(decodeJSON(t, out)), len(codelabWant), stderr)
	}
	if err := os.WriteFile(baseline, out, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runJitlint(t, bin, mod, "-baseline", baseline, "./codelab")
	if code != 0 || !strings.Contains(stderr, fmt.Sprintf("%d findings accepted by the baseline", len(codelabWant))) {
		t.Errorf("jitlint -baseline with every finding accepted: exit %d, want 0\n%s", code, stderr)
	}

	// Lines move, and the file gets a second copy of its mistake.
	step6 := filepath.Join(dir, "step6_control_flow.go")
	src, err := os.ReadFile(step6)
	if err != nil {
		t.Fatal(err)
	}
	edited := "// Two lines above the code\n// move every finding of this file.\n" + string(src) + `
// ReluWorse makes step 6's mistake again: a finding the baseline lacks.
func ReluWorse(x jit.Array) jit.Array {
	if x.Gt(0).Bool() {
		return x
	}
	return x.Neg()
}

var reluWorse = jit.Jit(ReluWorse)
`
	if err := os.WriteFile(step6, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	worse := strings.Count(edited[:strings.LastIndex(edited, "if x.Gt(0).Bool() {")], "\n") + 1
	_, stderr, code = runJitlint(t, bin, mod, "-baseline", baseline, "./codelab")
	var reported []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, ".go:") && !strings.Contains(l, ": \t") {
			reported = append(reported, l)
		}
	}
	if code != 3 || len(reported) != 1 || !strings.Contains(reported[0], fmt.Sprintf("step6_control_flow.go:%d:", worse)) ||
		!strings.Contains(stderr, fmt.Sprintf("%d findings accepted", len(codelabWant))) {
		t.Errorf("jitlint -baseline after the edit: exit %d (want 3), findings %q (want the one at step6_control_flow.go:%d)\n%s", code, reported, worse, stderr)
	}
}
