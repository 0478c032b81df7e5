package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers"
	"github.com/jitlint/jitlint/lsp/lsptest"
)

// newView returns a View of the sample module's relu package with the
// overlay that open returns, and the directory.
func newView(t *testing.T, open func() map[string]File) (*View, string) {
	t.Helper()
	dir := filepath.Join(lsptest.SampleModule(t, nil), "relu")
	v := NewView(Config{
		Analyzers: func() []*analysis.Analyzer { return analyzers.All() },
		Overlay:   func(string) map[string]File { return open() },
		Logf:      t.Logf,
	})
	t.Cleanup(v.Stop)
	return v, dir
}

// wait is View.Wait with a deadline (a hang is a failure, not a timing
// assertion).
func wait(t *testing.T, v *View, dir string) *Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := v.Wait(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSnapshotOfAPackage: a snapshot of the sample package holds its
// traced functions (with their //jit:args signatures and static
// arguments), the analyzers' finding on ReluBad, and answers where a
// traced function is named, declared and called; what a preview needs
// of it (Source, Target) comes from the same files.
func TestSnapshotOfAPackage(t *testing.T) {
	v, dir := newView(t, func() map[string]File { return nil })
	s := wait(t, v, dir)
	if s.Err != nil || s.Parsed == nil || s.Result == nil {
		t.Fatalf("snapshot: err %v, parsed %v, result %v", s.Err, s.Parsed != nil, s.Result != nil)
	}
	var names []string
	for _, f := range s.Traced {
		names = append(names, f.Name+"("+f.Signature()+")")
	}
	slices.Sort(names)
	if want := []string{"Power(3, f32[4])", "ReluBad(f32[8])", "ReluWhere(f32[5])"}; !slices.Equal(names, want) {
		t.Errorf("traced functions %v, want %v", names, want)
	}
	if p := s.TracedNamed("Power"); p == nil || !slices.Equal(p.Static, []int{0}) {
		t.Errorf("Power's static arguments: %+v", p)
	}
	var codes []string
	for _, f := range s.Findings {
		codes = append(codes, f.Analyzer.Name)
	}
	if !slices.Equal(codes, []string{"tracedbool"}) {
		t.Errorf("findings %v, want one tracedbool (ReluBad)", codes)
	}
	file := filepath.Join(dir, "relu.go")
	src, ok := s.AnalyzedContent(file)
	if !ok {
		t.Fatalf("%s was not analysed", file)
	}
	call := strings.Index(string(src), "jit.Jit(ReluWhere)") + len("jit.Jit(")
	if f, at := s.TracedAt(file, call); f == nil || f.Name != "ReluWhere" || string(src[at.Start:at.End]) != "ReluWhere" {
		t.Errorf("TracedAt the argument of jit.Jit(ReluWhere): %+v %+v", f, at)
	}
	body := strings.Index(string(src), "x = x.Mul(x)")
	if f := s.DeclaredAt(file, body); f == nil || f.Name != "Power" {
		t.Errorf("DeclaredAt Power's body: %+v", f)
	}
	if tgt, ok := s.TracedNamed("ReluWhere").Target(); !ok || tgt.Func != "ReluWhere" {
		t.Errorf("Target of ReluWhere: %+v %v", tgt, ok)
	}
	if src := s.Source(); src.Name != "relu" || src.Files[file] == nil || !slices.ContainsFunc(src.Deps, func(d string) bool { return strings.HasSuffix(d, "go.mod") }) {
		t.Errorf("Source: %+v", src)
	}
}

// TestSnapshotsFollowTheOverlay: an open buffer replaces the file on disk
// in the next snapshot (a new generation, with the buffer's version), and a
// //jit:args directive that does not parse is a Problem of it; the
// snapshot made before is unchanged.
func TestSnapshotsFollowTheOverlay(t *testing.T) {
	var overlay map[string]File
	v, dir := newView(t, func() map[string]File { return overlay })
	file := filepath.Join(dir, "relu.go")
	first := wait(t, v, dir)
	disk, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(disk), "//jit:args f32[5]", "//jit:args f32[5", 1)
	overlay = map[string]File{file: {Content: []byte(edited), Version: 7}}
	v.Schedule(dir)
	second := wait(t, v, dir)
	if second.Gen <= first.Gen || second.Version(file) != 7 || first.Version(file) != -1 {
		t.Errorf("generations %d → %d, versions %d → %d", first.Gen, second.Gen, first.Version(file), second.Version(file))
	}
	if len(second.Problems) != 1 || !strings.Contains(second.Problems[0].Msg, "malformed //jit:args directive") {
		t.Errorf("problems of the edited directive: %+v", second.Problems)
	}
	if len(first.Problems) != 0 {
		t.Errorf("the first snapshot changed: %+v", first.Problems)
	}
}

// TestOverlayProblemsWithoutTypes: when the package cannot be loaded (its
// directory is gone), the snapshot says why and still has the syntax
// problems of the open buffers; Analyzed is told of it, as a background
// analysis when ScheduleBackground asked for it.
func TestOverlayProblemsWithoutTypes(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	file := filepath.Join(gone, "x.go")
	analyzed := make(chan bool, 1)
	v := NewView(Config{
		Overlay: func(string) map[string]File {
			return map[string]File{file: {Content: []byte("package x\n\n//jit:args f32[\nfunc F() {}\n"), Version: 2}}
		},
		Analyzed: func(_ *Snapshot, background bool) { analyzed <- background },
	})
	defer v.Stop()
	v.ScheduleBackground(gone)
	if !<-analyzed {
		t.Errorf("Analyzed was not told the analysis was a background one")
	}
	s := wait(t, v, gone)
	if s.Err == nil || !strings.Contains(s.Err.Error(), "does not exist") {
		t.Errorf("error for a missing directory: %v", s.Err)
	}
	if len(s.Problems) != 1 || s.Problems[0].At.File != file {
		t.Errorf("problems: %+v", s.Problems)
	}
}
