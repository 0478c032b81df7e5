package snapshot

import (
	"errors"
	"maps"
	"os"
	"slices"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/factpass"
)

// File is an open buffer: content that replaces the file on disk.
type File struct {
	Content []byte
	Version int32 // the client's document version
}

// Snapshot is one analysis of a package directory: the files it saw, the
// package as type-checked from them, the traced analyzer's result, the
// analyzers' findings and the functions a preview can trace. It is never
// modified once a View has made it.
type Snapshot struct {
	Gen     uint64          // the View's generation of Dir this analysis is for
	Dir     string          // the package directory
	Overlay map[string]File // the open buffers of Dir the analysis read (absolute path → buffer)

	// Universe is the dependencies' types the package was checked
	// against, and Parsed the package (nil when they could not be loaded).
	Universe *Universe
	Parsed   *Parsed

	Result      *traced.Result // the traced analyzer's result (nil without jit or when it was skipped)
	Traced      []*Func        // the functions a preview can trace (scanTraced)
	Transforms  []*Func        // the transformation calls of Traced, as copies of them (scanTransforms)
	Previewable []*Func        // Traced, then Transforms: what the package's preview harness traces

	Findings []Finding // the analyzers' diagnostics, of the package and of its external tests
	Problems []Problem // problems with //jit:args directives (only their syntax when types are unavailable)

	Err      error         // why the analysis is incomplete, if it is
	Duration time.Duration // how long the analysis took
}

// Version returns the document version the analysis saw for path (-1 if
// it was read from disk).
func (s *Snapshot) Version(path string) int32 {
	if f, ok := s.Overlay[path]; ok {
		return f.Version
	}
	return -1
}

// Content returns the content of path as the analysis saw it (an open
// buffer or the file analysed), else as it is on disk; false if it cannot
// be read.
func (s *Snapshot) Content(path string) ([]byte, bool) {
	if f, ok := s.Overlay[path]; ok {
		return f.Content, true
	}
	if s.Parsed != nil {
		if c, ok := s.Parsed.Contents[path]; ok {
			return c, true
		}
	}
	b, err := os.ReadFile(path)
	return b, err == nil
}

// AnalyzedContent reports whether the file at path is one the analysis
// type-checked, with the content it had then.
func (s *Snapshot) AnalyzedContent(path string) ([]byte, bool) {
	if s.Parsed == nil {
		return nil, false
	}
	c, ok := s.Parsed.Contents[path]
	return c, ok
}

// analyze completes s with the package pp as parsed and type-checked:
// the analyzers' findings (with the dependencies' facts deps), the traced
// functions and their transformation copies, and the directive problems.
// current reports whether the work is still wanted: analyze returns nil
// once it is not.
func analyze(s *Snapshot, pp *Parsed, analyzers []*analysis.Analyzer, deps factpass.Facts, current func() bool) *Snapshot {
	s.Parsed = pp
	run, err := runAnalyzers(analyzers, pp.Pkg, deps)
	if err != nil {
		s.Err = errors.Join(s.Err, err)
	}
	s.Findings = run.diags
	if x := pp.XTest; x != nil && current() {
		// The external tests see the facts of the package under test too.
		xdeps := maps.Clone(deps)
		xdeps.Add(run.exported)
		xrun, err := runAnalyzers(analyzers, x, xdeps)
		if err != nil {
			s.Err = errors.Join(s.Err, err)
		}
		s.Findings = append(s.Findings, xrun.diags...)
	}
	if !current() {
		return nil
	}
	funcs, problems := scanTraced(pp.Pkg, run.traced)
	s.Traced, s.Result, s.Problems = funcs, run.traced, problems
	if run.traced == nil {
		// The analysis was skipped (type errors): the syntax-level findings
		// are all there is of the directives, as when nothing loads.
		s.Problems = append(s.Problems, OverlayProblems(s.Overlay)...)
	}
	s.Transforms = scanTransforms(pp.Pkg, run.traced, funcs)
	s.Previewable = append(slices.Clip(funcs), s.Transforms...)
	return s
}

// TracedAt returns the traced function whose name (declared or used) or
// jit.Jit or jit.MakeJaxpr call contains the byte offset off of file path,
// or the transformed copy whose transformation call (or the jit.Jit call
// of it) does; the innermost such span wins (F in jit.Vmap(F) is F, the
// rest of the call its Vmap). nil when there is none.
func (s *Snapshot) TracedAt(path string, off int) (*Func, Span) {
	var found *Func
	var at Span
	consider := func(tf *Func, spans []Span) {
		for _, sp := range spans {
			if sp.File == path && sp.Start <= off && off <= sp.End && (found == nil || sp.End-sp.Start < at.End-at.Start) {
				found, at = tf, sp
			}
		}
	}
	for _, tf := range s.Traced {
		consider(tf, append(append([]Span{tf.NameSpan}, tf.Refs...), tf.JitCalls...))
	}
	for _, tf := range s.Transforms {
		consider(tf, tf.Xform.Spans)
	}
	return found, at
}

// TracedNamed returns the traced function called name, or nil.
func (s *Snapshot) TracedNamed(name string) *Func {
	for _, tf := range s.Traced {
		if tf.Name == name {
			return tf
		}
	}
	return nil
}

// DeclaredAt returns the traced function whose declaration contains the
// byte offset off of file path, or nil.
func (s *Snapshot) DeclaredAt(path string, off int) *Func {
	var found *Func
	for _, t := range s.Traced {
		if t.File == path && t.DeclSpan.Start <= off && off <= t.DeclSpan.End {
			found = t
		}
	}
	return found
}
