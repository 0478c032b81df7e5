package main

import (
	"bytes"
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sampleFinding is a finding on a line with a non-ASCII character before
// it, with a related position and a fix, in a file under dir.
func sampleFinding(t *testing.T, dir string) (*finding, sources) {
	t.Helper()
	file := filepath.Join(dir, "pkg", "a.go")
	src := "package pkg\n\nvar s = \"é\"; var b = x.Bool()\n"
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	at := func(text string, end bool) token.Position {
		off := strings.Index(src, text)
		if end {
			off += len(text)
		}
		line := strings.Count(src[:off], "\n") + 1
		return token.Position{Filename: file, Offset: off, Line: line, Column: off - strings.LastIndex(src[:off], "\n")}
	}
	return &finding{
		rule: &rule{"tracedbool", "tracedbool: host control flow\n\nMore.", docsURL + "#tracedbool"}, pkg: "example.com/pkg",
		pos: at("x.Bool()", false), end: at("x.Bool()", true), message: "x.Bool() converts, 100%, a: b",
		related: []related{{at("package", false), at("package", true), "the package"}},
		fixes:   []fix{{"use Where", []textEdit{{at("x.Bool()", false), at("x.Bool()", true), "jit.Where(x)"}}}},
		runtime: runtimeConfirmed,
	}, sources{}
}

func TestPrintGitHub(t *testing.T) {
	dir := t.TempDir()
	f, src := sampleFinding(t, dir)
	var b bytes.Buffer
	printGitHub(&b, []*finding{f}, src, &pathNamer{dir})
	// Columns count code points: "é" is two bytes and one column.
	want := "::warning file=pkg/a.go,line=3,col=22,endLine=3,endColumn=30,title=jitlint tracedbool::" +
		"x.Bool() converts, 100%25, a: b (the run: confirmed)%0Apkg/a.go:1:1: the package\n"
	if b.String() != want {
		t.Errorf("printGitHub:\n got  %q\n want %q", b.String(), want)
	}
}

func TestPrintText(t *testing.T) {
	f, src := sampleFinding(t, t.TempDir())
	var b bytes.Buffer
	printText(&b, []*finding{f}, 1, src)
	lines := strings.Split(b.String(), "\n")
	if len(lines) != 8 || !strings.HasSuffix(lines[0], "a.go:3:23: x.Bool() converts, 100%, a: b (the run: confirmed)") ||
		lines[1] != "2\t" || !strings.HasPrefix(lines[2], "3\tvar s") || lines[3] != "4\t" ||
		!strings.HasSuffix(lines[4], "a.go:1:1: \tthe package") || lines[5] != "1\tpackage pkg" || lines[6] != "2\t" {
		t.Errorf("printText -c 1:\n%s", b.String())
	}
}

// TestPrintSARIF: the result has its rule, region (in code points),
// related location, fix and verdict; the file is relative to %SRCROOT%.
func TestPrintSARIF(t *testing.T) {
	dir := t.TempDir()
	f, src := sampleFinding(t, dir)
	var b bytes.Buffer
	if err := printSARIF(&b, []*finding{f}, []*rule{f.rule}, nil, src, &pathNamer{dir}); err != nil {
		t.Fatal(err)
	}
	type region struct{ StartLine, StartColumn, EndLine, EndColumn int }
	type location struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI       string
				URIBaseID string `json:"uriBaseId"`
				Index     int
			}
			Region region
		}
		Message struct{ Text string }
	}
	var log struct {
		Version string
		Runs    []struct {
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Tool               struct {
				Driver struct {
					Rules []struct {
						ID               string
						HelpURI          string
						ShortDescription struct{ Text string }
					}
				}
			}
			Artifacts []struct{ Hashes map[string]string }
			Results   []struct {
				RuleID           string
				RuleIndex        int
				Message          struct{ Text string }
				Locations        []location
				RelatedLocations []location
				Fixes            []struct {
					ArtifactChanges []struct {
						ArtifactLocation struct{ URI string }
						Replacements     []struct {
							DeletedRegion   region
							InsertedContent struct{ Text string }
						}
					}
				}
				Properties map[string]any
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	run := log.Runs[0]
	res := run.Results[0]
	loc := res.Locations[0].PhysicalLocation
	rl := run.Tool.Driver.Rules[0]
	fx := res.Fixes[0].ArtifactChanges[0]
	if log.Version != "2.1.0" || run.OriginalURIBaseIDs[srcRoot].URI != "file://"+filepath.ToSlash(dir)+"/" ||
		rl.ID != "tracedbool" || rl.ShortDescription.Text != "tracedbool: host control flow" || rl.HelpURI != docsURL+"#tracedbool" ||
		res.RuleID != "tracedbool" || res.RuleIndex != 0 || res.Message.Text != "x.Bool() converts, 100%, a: b (the run: confirmed)" ||
		loc.ArtifactLocation.URI != "pkg/a.go" || loc.ArtifactLocation.URIBaseID != srcRoot || loc.ArtifactLocation.Index != 0 ||
		loc.Region != (region{3, 22, 3, 30}) || len(run.Artifacts) != 1 || len(run.Artifacts[0].Hashes["sha-256"]) != 64 ||
		res.RelatedLocations[0].Message.Text != "the package" || res.RelatedLocations[0].PhysicalLocation.Region != (region{1, 1, 1, 8}) ||
		fx.ArtifactLocation.URI != "pkg/a.go" || fx.Replacements[0].DeletedRegion != (region{3, 22, 3, 30}) ||
		fx.Replacements[0].InsertedContent.Text != "jit.Where(x)" || res.Properties["runtime"] != "confirmed" {
		t.Errorf("printSARIF:\n%s", b.String())
	}
}
