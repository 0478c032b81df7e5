package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// multitoolErrors validates the SARIF log at path with Microsoft's SARIF
// Multitool (the binary tool) and returns the errors it found: its own
// output log's results of level error, and its failures. The Multitool
// exits 0 whatever it finds, so its log is what counts.
func multitoolErrors(t *testing.T, tool, path string) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "validation.sarif")
	cmd := exec.Command(tool, "validate", "-o", out, path)
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	console, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s validate %s: %v\n%s", tool, path, err, console)
	}
	log, err := sarif.Open(out)
	if err != nil {
		t.Fatalf("reading the Multitool's log: %v\n%s", err, console)
	}
	var errs []string
	for _, run := range log.Runs {
		for _, r := range run.Results {
			if r.Level == "error" && r.RuleID != nil {
				errs = append(errs, *r.RuleID)
			}
		}
		for _, inv := range run.Invocations {
			if inv.ExecutionSuccessful != nil && !*inv.ExecutionSuccessful {
				errs = append(errs, "the validation did not run to the end")
			}
			for _, n := range inv.ToolExecutionNotifications {
				if n.Level == "error" {
					errs = append(errs, "a notification of level error")
				}
			}
		}
	}
	if len(errs) > 0 {
		t.Logf("the Multitool on %s:\n%s", path, console)
	}
	return errs
}

// TestSARIFMultitool writes jitlint -format=sarif of the codelab, with the
// events of a run of steps 5 and 6 (so that the log has the reports and
// the runtime verdicts too), and validates it with Microsoft's SARIF
// Multitool, which JITLINT_SARIF_MULTITOOL names (CI installs it with
// scripts/sarif-multitool.sh): no errors. A copy broken on purpose must
// have errors, so that the check is known to fail when it should.
func TestSARIFMultitool(t *testing.T) {
	tool := os.Getenv("JITLINT_SARIF_MULTITOOL")
	if tool == "" {
		t.Skip("JITLINT_SARIF_MULTITOOL is not set (scripts/sarif-multitool.sh installs the Multitool and prints its path; CI runs this test)")
	}
	mod, _ := codelabCopy(t)
	bin := buildJitlint(t)
	events := runSteps(t, buildCodelab(t, mod), "5", "6")
	out, stderr, code := runJitlint(t, bin, mod, "-format=sarif", "-events", events, "./codelab")
	if code != 3 {
		t.Fatalf("jitlint -format=sarif: exit %d, want 3 (findings)\n%s", code, stderr)
	}
	path := filepath.Join(t.TempDir(), "codelab.sarif")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}

	// What the log holds: a result per finding, with rules, fixes and verdicts.
	log, err := sarif.FromBytes(out)
	if err != nil || len(log.Runs) != 1 {
		t.Fatalf("the log: %v, %d runs", err, len(log.Runs))
	}
	run := log.Runs[0]
	byRule := map[string]int{}
	fixes, confirmed := 0, 0
	for _, r := range run.Results {
		byRule[*r.RuleID]++
		fixes += len(r.Fixes)
		if r.Properties != nil && r.Properties.Properties["runtime"] == "confirmed" {
			confirmed++
		}
		if r.RuleIndex < 0 || r.RuleIndex >= len(run.Tool.Driver.Rules) || *run.Tool.Driver.Rules[r.RuleIndex].ID != *r.RuleID {
			t.Errorf("result of %s: its ruleIndex names another rule", *r.RuleID)
		}
	}
	for _, w := range codelabWant {
		if byRule[w.analyzer] != 1 {
			t.Errorf("%d results of %s, want 1", byRule[w.analyzer], w.analyzer)
		}
	}
	if byRule["recompiles"] != 1 || byRule["tracefailures"] != 1 || fixes == 0 || confirmed != 2 {
		t.Errorf("results: %v, %d fixes, %d confirmed; want a recompile, a trace failure, fixes and 2 confirmed (shapechurn, tracedbool)", byRule, fixes, confirmed)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.HelpURI == nil || !strings.Contains(*r.HelpURI, "docs/analyzers.md#"+*r.ID) {
			t.Errorf("rule %s: help URI %v, want its section of docs/analyzers.md", *r.ID, r.HelpURI)
		}
	}

	if errs := multitoolErrors(t, tool, path); len(errs) > 0 {
		t.Errorf("the SARIF Multitool finds errors in jitlint -format=sarif: %v", errs)
	}

	// A broken copy: a region on line 0 and a result without a message.
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	results := doc["runs"].([]any)[0].(map[string]any)["results"].([]any)
	loc := results[0].(map[string]any)["locations"].([]any)[0].(map[string]any)
	loc["physicalLocation"].(map[string]any)["region"].(map[string]any)["startLine"] = 0
	delete(results[1].(map[string]any), "message")
	broken, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	brokenPath := filepath.Join(t.TempDir(), "broken.sarif")
	if err := os.WriteFile(brokenPath, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	errs := strings.Join(multitoolErrors(t, tool, brokenPath), " ")
	if !strings.Contains(errs, "JSON1008") || !strings.Contains(errs, "JSON1002") {
		t.Errorf("the SARIF Multitool on a broken log: errors %q, want JSON1008 (startLine 0) and JSON1002 (no message)", errs)
	}
}
