package lsp

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/jitlint/jitlint/analyzers/suppress"
	"github.com/jitlint/jitlint/internal/snapshot"
	"github.com/jitlint/jitlint/internal/textdoc"
)

// docsBase is where diagnostics link when an analyzer has no URL.
const docsBase = "https://pkg.go.dev/github.com/jitlint/jitlint/analyzers/"

// directiveDocs documents the //jit:args directive.
const directiveDocs = "https://github.com/jitlint/jitlint/blob/main/docs/editors.md#the-jitargs-directive"

// pkgResult is a snapshot with its diagnostics as the client sees them:
// the analyzers' findings, the //jit:args problems and the last run's
// recompiles, each with the version of the document it was computed for.
type pkgResult struct {
	*snapshot.Snapshot
	diags map[protocol.DocumentURI][]storedDiag

	mu      sync.Mutex
	mappers map[string]*textdoc.Mapper
}

// storedDiag is a published diagnostic and its quick fixes.
type storedDiag struct {
	diag    protocol.Diagnostic
	fixes   []quickFix
	version int32 // version of the document it was computed for (-1: not open)
}

// quickFix is one SuggestedFix converted to LSP edits.
type quickFix struct {
	title     string
	edits     map[protocol.DocumentURI][]fixEdit
	preferred bool // the analyzer's only suggested fix
}

// fixEdit is one edit of a quick fix.
type fixEdit struct {
	protocol.TextEdit
	// snippet is the new text as an LSP snippet with placeholders for the
	// user to fill in ("" when the edit has none); NewText is the same
	// text with the placeholders' defaults, for clients without snippets.
	snippet string
}

// results are the diagnostics of the latest snapshot of each directory,
// and the files the server published diagnostics for.
type results struct {
	mu        sync.Mutex
	byDir     map[string]*pkgResult
	published map[string]map[protocol.DocumentURI]bool
}

// result returns the diagnostics of snap, converting them once per
// snapshot.
func (s *Server) result(snap *snapshot.Snapshot) *pkgResult {
	s.results.mu.Lock()
	r := s.results.byDir[snap.Dir]
	s.results.mu.Unlock()
	if r != nil && r.Snapshot == snap {
		return r
	}
	converted := s.newResult(snap) // outside the lock: it maps files and reads the events file
	s.results.mu.Lock()
	defer s.results.mu.Unlock()
	switch cur := s.results.byDir[snap.Dir]; {
	case cur != nil && cur.Snapshot == snap:
		return cur // converted meanwhile by another request
	case cur == nil || cur.Gen < snap.Gen:
		s.results.byDir[snap.Dir] = converted
	}
	return converted
}

// newResult converts snap's findings, problems and recompiles to
// diagnostics.
func (s *Server) newResult(snap *snapshot.Snapshot) *pkgResult {
	r := &pkgResult{Snapshot: snap, diags: map[protocol.DocumentURI][]storedDiag{}, mappers: map[string]*textdoc.Mapper{}}
	for _, f := range snap.Findings {
		if sd, u, ok := r.convert(f); ok {
			r.diags[u] = append(r.diags[u], sd)
		}
	}
	for _, p := range snap.Problems {
		if m := r.mapperFor(p.At.File); m != nil {
			u := textdoc.FileURI(p.At.File)
			r.diags[u] = append(r.diags[u], storedDiag{version: r.Version(p.At.File), diag: protocol.Diagnostic{
				Range: m.Range(p.At.Start, p.At.End), Severity: protocol.DiagnosticSeverityError,
				Code: "jitargs", CodeDescription: &protocol.CodeDescription{Href: uri.URI(directiveDocs)},
				Source: "jitls", Message: p.Msg,
			}})
		}
	}
	s.addRecompiles(r)
	return r
}

// addRecompiles adds the runtime diagnostics of the call sites of r's
// files that the last run compiled more than once.
func (s *Server) addRecompiles(r *pkgResult) {
	for _, rc := range r.Recompiles(s.runs.Current()) {
		m := r.mapperFor(rc.File)
		if m == nil {
			continue
		}
		u := textdoc.FileURI(rc.File)
		rng := m.Range(rc.Start, rc.End)
		msg := rc.Message
		for _, d := range r.diags[u] {
			if d.diag.Code != "runtime" && d.diag.Code != "jitargs" && d.diag.Range.Start.Line <= rng.Start.Line && rng.Start.Line <= d.diag.Range.End.Line {
				msg += fmt.Sprintf(" (the %v analyzer reports this call too: the run agrees)", d.diag.Code)
				break
			}
		}
		r.diags[u] = append(r.diags[u], storedDiag{version: r.Version(rc.File), diag: protocol.Diagnostic{
			Range: rng, Severity: protocol.DiagnosticSeverityInformation, Code: "runtime", Source: "jitls", Message: msg}})
	}
}

// analyzed publishes a new snapshot's diagnostics to a push client, or
// asks a pull client to pull again after a background analysis.
func (s *Server) analyzed(snap *snapshot.Snapshot, background bool) {
	res := s.result(snap)
	if s.caps().pullDiagnostics {
		if background {
			s.refreshDiagnostics()
		}
		return
	}
	s.results.mu.Lock()
	published := s.results.published[snap.Dir]
	now := map[protocol.DocumentURI]bool{}
	for u := range res.diags {
		now[u] = true
	}
	s.results.published[snap.Dir] = now
	s.results.mu.Unlock()
	for u, list := range res.diags {
		s.publish(u, list, res.versionOf(u))
	}
	// Open files without findings get [] too: it clears what was there and
	// tells the client which version was analysed.
	for path := range s.overlay(snap.Dir) {
		if published == nil {
			published = map[protocol.DocumentURI]bool{}
		}
		published[textdoc.FileURI(path)] = true
	}
	for u := range published {
		if _, ok := res.diags[u]; !ok {
			s.publish(u, nil, res.versionOf(u))
		}
	}
}

// publish sends one file's diagnostics ([] rather than null to clear),
// with the document version they were computed for (-1: none).
func (s *Server) publish(u protocol.DocumentURI, list []storedDiag, version int32) {
	caps := s.caps()
	s.notify(protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{
		URI: u, Diagnostics: caps.diagnostics(u, list), Version: caps.publishVersion(version)})
}

// versionOf is Version for a URI.
func (r *pkgResult) versionOf(u protocol.DocumentURI) int32 {
	path, err := textdoc.FilePath(u)
	if err != nil {
		return -1
	}
	return r.Version(path)
}

// mapperFor returns a mapper for path: of the analysed content, or of the
// disk.
func (r *pkgResult) mapperFor(path string) *textdoc.Mapper {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m := r.mappers[path]; m != nil {
		return m
	}
	b, ok := r.Content(path)
	if !ok {
		return nil
	}
	m := textdoc.NewMapper(b)
	r.mappers[path] = m
	return m
}

// convert turns an analyzer's finding into a stored LSP diagnostic.
func (r *pkgResult) convert(f snapshot.Finding) (storedDiag, protocol.DocumentURI, bool) {
	fset := r.Parsed.Pkg.Fset
	loc := func(pos, end token.Pos) (protocol.DocumentURI, protocol.Range, bool) {
		p := fset.Position(pos)
		if !p.IsValid() {
			return "", protocol.Range{}, false
		}
		m := r.mapperFor(p.Filename)
		if m == nil {
			return "", protocol.Range{}, false
		}
		e := p.Offset
		if ep := fset.Position(end); ep.IsValid() && ep.Filename == p.Filename && ep.Offset >= p.Offset {
			e = ep.Offset
		}
		return textdoc.FileURI(filepath.Clean(p.Filename)), m.Range(p.Offset, e), true
	}
	u, rng, ok := loc(f.Pos, f.End)
	if !ok {
		return storedDiag{}, "", false
	}
	href := f.URL
	if href == "" {
		href = f.Analyzer.URL
	}
	if href == "" {
		href = docsBase + f.Analyzer.Name
	}
	diag := protocol.Diagnostic{
		Range: rng, Severity: protocol.DiagnosticSeverityWarning, Code: f.Analyzer.Name,
		CodeDescription: &protocol.CodeDescription{Href: uri.URI(href)}, Source: "jitls", Message: f.Message,
	}
	for _, rel := range f.Related {
		if ru, rr, ok := loc(rel.Pos, rel.End); ok {
			diag.RelatedInformation = append(diag.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: ru, Range: rr}, Message: rel.Message})
		}
	}
	sd := storedDiag{diag: diag, version: r.Version(fset.Position(f.Pos).Filename)}
	for _, fix := range f.SuggestedFixes {
		qf := quickFix{title: fix.Message, edits: map[protocol.DocumentURI][]fixEdit{}}
		for _, te := range fix.TextEdits {
			end := te.End
			if !end.IsValid() {
				end = te.Pos
			}
			eu, er, ok := loc(te.Pos, end)
			if !ok {
				qf.edits = nil
				break
			}
			qf.edits[eu] = append(qf.edits[eu], fixEdit{TextEdit: protocol.TextEdit{Range: er, NewText: string(te.NewText)}})
		}
		if len(qf.edits) > 0 {
			qf.preferred = len(f.SuggestedFixes) == 1
			sd.fixes = append(sd.fixes, qf)
		}
	}
	if p := fset.Position(f.Pos); f.Analyzer.Name != suppress.Name {
		sd.fixes = append(sd.fixes, ignoreFix(f.Analyzer.Name, u, r.mapperFor(p.Filename), p.Offset))
	}
	return sd, u, true
}

// analysedMapper is mapperFor for a file the analysis type-checked, nil
// for any other.
func (r *pkgResult) analysedMapper(path string) *textdoc.Mapper {
	if _, ok := r.AnalyzedContent(path); !ok {
		return nil
	}
	return r.mapperFor(path)
}
