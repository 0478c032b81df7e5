package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/token"
	"io"
	"maps"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// The SARIF format is a SARIF 2.1.0 log, built with the object model of
// github.com/owenrumney/go-sarif (generated from the OASIS schema): one run
// of the tool "jitlint" with a rule per analyzer and report (its doc and its
// section in docs/analyzers.md), and a result per finding with its region,
// related locations, fixes, and the run's verdict as the property
// "runtime". Files under the current directory are named relative to the
// base %SRCROOT%, which is the current directory, so that code scanning
// maps them to the repository when jitlint runs at its root.

// srcRoot is the URI base of the files under the current directory.
const srcRoot = "%SRCROOT%"

// printSARIF writes the SARIF log of the findings of the rules, and of the
// analyzers that failed (as tool execution notifications).
func printSARIF(w io.Writer, fs []*finding, rules []*rule, errs []analysisError, src sources, paths *pathNamer) error {
	run := sarif.NewRunWithInformationURI("jitlint", "https://github.com/jitlint/jitlint")
	run.Tool.Driver.WithVersion(toolVersion())
	run.WithColumnKind("unicodeCodePoints")
	root := (&url.URL{Scheme: "file", Path: filepath.ToSlash(paths.root) + "/"}).String()
	run.WithOriginalUriBaseIds(map[string]sarif.ArtifactLocation{srcRoot: *sarif.NewArtifactLocation().WithURI(root)})
	for _, r := range rules {
		summary, _, _ := strings.Cut(r.doc, "\n")
		run.AddRule(r.name).
			WithShortDescription(sarif.NewMultiformatMessageString().WithText(summary)).
			WithFullDescription(sarif.NewMultiformatMessageString().WithText(r.doc)).
			WithHelp(sarif.NewMultiformatMessageString().WithText(r.doc + "\n\nSee " + r.url)).
			WithHelpURI(r.url).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel("warning"))
	}
	arts := &artifacts{run: run, src: src, paths: paths, index: map[string]int{}}
	loc := func(from, to token.Position) *sarif.Location {
		return sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().
			WithArtifactLocation(arts.location(from.Filename)).WithRegion(region(from, to, src)))
	}
	for _, f := range fs {
		res := run.CreateResultForRule(f.rule.name).WithLevel("warning").
			WithMessage(sarif.NewTextMessage(f.message + runtimeSuffix(f.runtime))).
			AddLocation(loc(f.pos, f.end))
		for i, r := range f.related {
			res.AddRelatedLocation(loc(r.pos, r.end).WithID(i + 1).WithMessage(sarif.NewTextMessage(r.message)))
		}
		for _, fx := range f.fixes {
			res.AddFixe(sarifFix(fx, src, arts))
		}
		props := map[string]any{}
		if f.runtime != "" {
			props["runtime"] = f.runtime
		}
		maps.Copy(props, f.props)
		if len(props) > 0 {
			bag := sarif.NewPropertyBag()
			bag.Properties = props
			res.WithProperties(bag)
		}
	}
	inv := sarif.NewInvocation().WithExecutionSuccessful(len(errs) == 0)
	for _, e := range errs {
		inv.AddToolExecutionNotification(sarif.NewNotification().WithLevel("error").
			WithMessage(sarif.NewTextMessage(fmt.Sprintf("%s: analyzer %s failed: %v", e.pkg, e.analyzer, e.err))))
	}
	run.AddInvocation(inv)
	return sarif.NewReport().AddRun(run).PrettyWrite(w)
}

// sarifFix converts a suggested fix to a SARIF fix: one artifact change
// per file it edits, in the order of the edits.
func sarifFix(fx fix, src sources, arts *artifacts) *sarif.Fix {
	out := sarif.NewFix().WithDescription(sarif.NewTextMessage(fx.message))
	changes := map[string]*sarif.ArtifactChange{}
	for _, e := range fx.edits {
		ch := changes[e.start.Filename]
		if ch == nil {
			ch = sarif.NewArtifactChange().WithArtifactLocation(arts.location(e.start.Filename))
			changes[e.start.Filename] = ch
			out.AddArtifactChange(ch)
		}
		ch.AddReplacement(sarif.NewReplacement().WithDeletedRegion(region(e.start, e.end, src)).
			WithInsertedContent(sarif.NewArtifactContent().WithText(e.text)))
	}
	return out
}

// artifacts are the files of a run (run.artifacts), which locations
// name by index.
type artifacts struct {
	run   *sarif.Run
	src   sources
	paths *pathNamer
	index map[string]int
}

// location names file: by its index in the run's artifacts, and relative
// to %SRCROOT% when it is under the current directory, else by its
// absolute file URI. The artifact has the file's length and SHA-256.
func (a *artifacts) location(file string) *sarif.ArtifactLocation {
	uri := func() *sarif.ArtifactLocation {
		if rel := a.paths.rel(file); rel != file || !filepath.IsAbs(file) {
			return sarif.NewArtifactLocation().WithURI((&url.URL{Path: rel}).String()).WithURIBaseID(srcRoot)
		}
		return sarif.NewArtifactLocation().WithURI((&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String())
	}
	i, ok := a.index[file]
	if !ok {
		i = len(a.run.Artifacts)
		a.index[file] = i
		art := sarif.NewArtifact().WithLocation(uri().WithIndex(i)).WithSourceLanguage("go")
		if data := a.src.get(file); data != nil {
			sum := sha256.Sum256(data)
			art.WithLength(len(data)).WithHashes(map[string]string{"sha-256": hex.EncodeToString(sum[:])})
		}
		a.run.AddArtifact(art)
	}
	return uri().WithIndex(i)
}

// region is the text from one position to another, in lines and Unicode
// code point columns.
func region(from, to token.Position, src sources) *sarif.Region {
	return sarif.NewRegion().WithStartLine(from.Line).WithStartColumn(src.runeColumn(from)).
		WithEndLine(to.Line).WithEndColumn(src.runeColumn(to))
}

// toolVersion is the version of the jitlint module this binary was built
// from ("0.0.0-devel" for a build in a checkout, which has none).
func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "0.0.0-devel"
}
