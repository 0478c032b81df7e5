package lsp

import (
	"context"
	"errors"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/jitlint/jitlint/analyzers/traced"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/jitlint/jitlint/analyzers/suppress"
	"github.com/jitlint/jitlint/internal/factpass"
)

// docsBase is where diagnostics link when an analyzer has no URL.
const docsBase = "https://pkg.go.dev/github.com/jitlint/jitlint/analyzers/"

// directiveDocs documents the //jit:args directive.
const directiveDocs = "https://github.com/jitlint/jitlint/blob/main/docs/editors.md#the-jitargs-directive"

// diagnoser runs analyses per package directory: at once (or debounced,
// see Options.DiagnosticsDelay), one at a time per directory, abandoning
// work that a newer edit has superseded.
type diagnoser struct {
	s *Server

	mu      sync.Mutex
	dirs    map[string]*dirState
	ctx     context.Context
	cancel  context.CancelFunc
	stopped bool
	facts   *factCache
}

// dirState is the analysis state of one package directory.
type dirState struct {
	timer     *time.Timer
	gen       uint64     // generation of the latest scheduled analysis
	running   sync.Mutex // held while an analysis of this directory runs
	uni       *Universe
	result    *Snapshot
	done      chan struct{} // closed (and replaced) whenever result changes
	published map[protocol.DocumentURI]bool
	refresh   bool // a background analysis is pending: ask a pull client to pull again
}

// Snapshot is the outcome of one analysis of a package directory.
type Snapshot struct {
	Gen      uint64
	Dir      string
	Parsed       *Parsed
	Universe      *Universe
	diags    map[protocol.DocumentURI][]storedDiag
	Traced   []*Func
	Result       *traced.Result // the traced analyzer's result (nil without jit)
	mappers  map[string]*mapper
	Err      error
	Duration time.Duration

	Transforms  []*Func // the transformation calls of traced functions, as copies of them (scanTransforms)
	Previewable []*Func // traced, then transforms: what the package's preview harness traces
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

func newDiagnoser(s *Server) *diagnoser {
	ctx, cancel := context.WithCancel(context.Background())
	return &diagnoser{s: s, dirs: map[string]*dirState{}, ctx: ctx, cancel: cancel, facts: newFactCache()}
}

// stop cancels pending work; later schedules are ignored.
func (d *diagnoser) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopped = true
	d.cancel()
	for _, ds := range d.dirs {
		if ds.timer != nil {
			ds.timer.Stop()
		}
	}
}

func (d *diagnoser) state(dir string) *dirState {
	ds := d.dirs[dir]
	if ds == nil {
		ds = &dirState{done: make(chan struct{}), published: map[protocol.DocumentURI]bool{}}
		d.dirs[dir] = ds
	}
	return ds
}

// schedule starts (or, with a delay, re-times) dir's analysis after an
// edit or for a client request.
func (d *diagnoser) schedule(dir string) { d.scheduleFor(dir, false) }

// scheduleBackground starts dir's analysis for a reason the client did
// not cause (a settings change, a file saved elsewhere, a closed buffer):
// a pull client is asked to pull again when it ends.
func (d *diagnoser) scheduleBackground(dir string) { d.scheduleFor(dir, true) }

func (d *diagnoser) scheduleFor(dir string, background bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	ds := d.state(dir)
	ds.refresh = ds.refresh || background
	ds.gen++
	gen := ds.gen
	if ds.timer != nil {
		ds.timer.Stop()
	}
	if d.s.opts.DiagnosticsDelay <= 0 {
		// Older runs waiting for the directory return at once, and a
		// running one stops at its next check of current.
		go d.run(dir, gen)
		return
	}
	ds.timer = time.AfterFunc(d.s.opts.DiagnosticsDelay, func() { d.run(dir, gen) })
}

// rescheduleAll re-analyses every known directory (after a settings change).
func (d *diagnoser) rescheduleAll() {
	d.mu.Lock()
	dirs := make([]string, 0, len(d.dirs))
	for dir := range d.dirs {
		dirs = append(dirs, dir)
	}
	d.mu.Unlock()
	for _, dir := range dirs {
		d.scheduleBackground(dir)
	}
}

// invalidateDependents drops cached dependency types of every package
// other than changedDir ("" = all) and re-analyses them.
func (d *diagnoser) invalidateDependents(changedDir string) {
	d.mu.Lock()
	var dirs []string
	for dir, ds := range d.dirs {
		if dir != changedDir {
			ds.uni = nil
			dirs = append(dirs, dir)
		}
	}
	d.mu.Unlock()
	for _, dir := range dirs {
		d.scheduleBackground(dir)
	}
}

// current reports whether gen is still the latest generation of dir.
func (d *diagnoser) current(dir string, gen uint64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.stopped && d.dirs[dir].gen == gen
}

// run analyses dir for generation gen and publishes the diagnostics.
func (d *diagnoser) run(dir string, gen uint64) {
	d.mu.Lock()
	ds := d.state(dir)
	d.mu.Unlock()
	ds.running.Lock()
	defer ds.running.Unlock()
	if !d.current(dir, gen) {
		return
	}
	start := time.Now()
	res := d.analyze(dir, gen, ds)
	if res == nil { // superseded
		return
	}
	res.Duration = time.Since(start)
	if res.Err != nil {
		d.s.logf("jitls: %v", res.Err)
	}
	d.s.logf("jitls: analysed %s in %.1f ms", dir, float64(res.Duration.Microseconds())/1000)
	d.mu.Lock()
	ds.result = res
	close(ds.done)
	ds.done = make(chan struct{})
	published := ds.published
	ds.published = map[protocol.DocumentURI]bool{}
	for u := range res.diags {
		ds.published[u] = true
	}
	refresh := ds.refresh
	ds.refresh = false
	d.mu.Unlock()
	if d.s.caps().pullDiagnostics {
		if refresh {
			d.s.refreshDiagnostics()
		}
		return
	}
	for u, list := range res.diags {
		d.publish(u, list, res.versionOf(u))
	}
	// Open files without findings get [] too: it clears what was there and
	// tells the client which version was analysed.
	for _, doc := range d.s.snapshotDocs(dir) {
		published[doc.uri] = true
	}
	for u := range published {
		if _, ok := res.diags[u]; !ok {
			d.publish(u, nil, res.versionOf(u))
		}
	}
}

// publish sends one file's diagnostics ([] rather than null to clear),
// with the document version they were computed for (-1: none).
func (d *diagnoser) publish(u protocol.DocumentURI, list []storedDiag, version int32) {
	caps := d.s.caps()
	d.s.notify(protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{
		URI: u, Diagnostics: caps.diagnostics(u, list), Version: caps.publishVersion(version)})
}

// analyze loads (or reuses) dir's dependency universe, type-checks the
// package with the open buffers and runs the analyzers. It returns nil if
// a newer generation superseded this one.
func (d *diagnoser) analyze(dir string, gen uint64, ds *dirState) *Snapshot {
	res := &Snapshot{Gen: gen, Dir: dir, diags: map[protocol.DocumentURI][]storedDiag{}, mappers: map[string]*mapper{}}
	d.mu.Lock()
	u := ds.uni
	d.mu.Unlock()
	docs := d.s.snapshotDocs(dir)
	var extra []string
	for attempt := 0; ; attempt++ {
		if u == nil {
			var err error
			u, err = d.loadReporting(dir, extra, docs, ds)
			if err != nil {
				// Without types, the syntax-level findings are all there is.
				res.Err, res.diags = err, syntaxDiags(docs)
				return res
			}
			d.mu.Lock()
			ds.uni = u
			d.mu.Unlock()
			if !d.current(dir, gen) {
				return nil
			}
		}
		pp, err := parsePackage(u, docs, attempt == 0)
		if err != nil {
			res.Err = err
			return res
		}
		if pp.newDeps && attempt == 0 {
			// An import was added in a buffer: reload the dependencies once,
			// asking for the buffers' imports explicitly.
			for _, ip := range pp.imports {
				if _, ok := u.imports[ip]; !ok && ip != "unsafe" || slices.Contains(u.extra, ip) {
					extra = append(extra, ip)
				}
			}
			u = nil
			continue
		}
		res.Parsed, res.Universe = pp, u
		break
	}
	if !d.current(dir, gen) {
		return nil
	}
	for path, content := range res.Parsed.Contents {
		if d := docs[path]; d != nil { // content is d.text
			res.mappers[path] = d.mapper()
		} else {
			res.mappers[path] = newMapper(content)
		}
	}
	d.s.mu.Lock()
	analyzers := d.s.analyzers
	d.s.mu.Unlock()
	if pkg := res.Parsed.Pkg; pkg.IllTyped && len(pkg.TypeErrors) > 0 {
		d.s.logf("jitls: %s has type errors, so analyzers that need well-typed code are skipped until they are fixed (first: %v)", dir, pkg.TypeErrors[0])
	}
	deps, err := d.facts.depFacts(res.Universe, analyzers)
	if err != nil {
		d.s.logf("jitls: %v; cross-package findings are missing until it is fixed", err)
		deps = factpass.Facts{}
	}
	run, err := runAnalyzers(analyzers, res.Parsed.Pkg, deps)
	if err != nil {
		res.Err = err
	}
	found := run.diags
	if x := res.Parsed.XTest; x != nil && d.current(dir, gen) {
		// The external tests see the facts of the package under test too.
		xdeps := maps.Clone(deps)
		xdeps.Add(run.exported)
		xrun, err := runAnalyzers(analyzers, x, xdeps)
		if err != nil {
			res.Err = errors.Join(res.Err, err)
		}
		found = append(found, xrun.diags...)
	}
	if !d.current(dir, gen) {
		return nil
	}
	for _, ad := range found {
		if sd, u, ok := res.convert(ad); ok {
			res.diags[u] = append(res.diags[u], sd)
		}
	}
	traced, problems := scanTraced(res.Parsed.Pkg, run.traced)
	res.Traced, res.Result = traced, run.traced
	if run.traced == nil {
		// The analysis was skipped (type errors): the syntax-level findings
		// are all there is of the directives, as when nothing loads.
		for u, list := range syntaxDiags(docs) {
			res.diags[u] = append(res.diags[u], list...)
		}
	}
	res.Transforms = scanTransforms(res.Parsed.Pkg, run.traced, traced)
	res.Previewable = append(slices.Clip(traced), res.Transforms...)
	for _, p := range problems {
		if m := res.mappers[p.At.File]; m != nil {
			u := fileURI(p.At.File)
			res.diags[u] = append(res.diags[u], p.diagnostic(m, res.version(p.At.File)))
		}
	}
	d.s.runtime.addDiagnostics(res)
	return res
}

// diagnostic is the stored diagnostic of a //jit:args problem.
func (p Problem) diagnostic(m *mapper, version int32) storedDiag {
	return storedDiag{
		version: version,
		diag: protocol.Diagnostic{
			Range: m.rangeOf(p.At.Start, p.At.End), Severity: protocol.DiagnosticSeverityError,
			Code: "jitargs", CodeDescription: &protocol.CodeDescription{Href: uri.URI(directiveDocs)},
			Source: "jitls", Message: p.Msg,
		},
	}
}

// version returns the document version the analysis saw for path (-1 if
// it was read from disk).
func (r *Snapshot) version(path string) int32 {
	if v, ok := r.Parsed.Versions[path]; ok {
		return v
	}
	return -1
}

// versionOf is version for a URI.
func (r *Snapshot) versionOf(u protocol.DocumentURI) int32 {
	path, err := filePath(u)
	if err != nil || r.Parsed == nil {
		return -1
	}
	return r.version(path)
}

// mapperFor returns a mapper for path: the analysed content, or the disk.
func (r *Snapshot) mapperFor(path string) *mapper {
	if m := r.mappers[path]; m != nil {
		return m
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	m := newMapper(b)
	r.mappers[path] = m
	return m
}

// convert turns an analyzer diagnostic into a stored LSP diagnostic.
func (r *Snapshot) convert(ad Finding) (storedDiag, protocol.DocumentURI, bool) {
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
		return fileURI(filepath.Clean(p.Filename)), m.rangeOf(p.Offset, e), true
	}
	u, rng, ok := loc(ad.Pos, ad.End)
	if !ok {
		return storedDiag{}, "", false
	}
	href := ad.URL
	if href == "" {
		href = ad.Analyzer.URL
	}
	if href == "" {
		href = docsBase + ad.Analyzer.Name
	}
	diag := protocol.Diagnostic{
		Range: rng, Severity: protocol.DiagnosticSeverityWarning, Code: ad.Analyzer.Name,
		CodeDescription: &protocol.CodeDescription{Href: uri.URI(href)}, Source: "jitls", Message: ad.Message,
	}
	for _, rel := range ad.Related {
		if ru, rr, ok := loc(rel.Pos, rel.End); ok {
			diag.RelatedInformation = append(diag.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: ru, Range: rr}, Message: rel.Message})
		}
	}
	sd := storedDiag{diag: diag, version: r.version(fset.Position(ad.Pos).Filename)}
	for _, fix := range ad.SuggestedFixes {
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
			qf.preferred = len(ad.SuggestedFixes) == 1
			sd.fixes = append(sd.fixes, qf)
		}
	}
	if p := fset.Position(ad.Pos); ad.Analyzer.Name != suppress.Name {
		sd.fixes = append(sd.fixes, ignoreFix(ad.Analyzer.Name, u, r.mapperFor(p.Filename), p.Offset))
	}
	return sd, u, true
}

// waitResult returns dir's analysis result once no newer analysis is
// pending, scheduling one if the directory was never analysed.
func (d *diagnoser) waitResult(ctx context.Context, dir string) (*Snapshot, error) {
	d.mu.Lock()
	if _, ok := d.dirs[dir]; !ok {
		d.mu.Unlock()
		d.schedule(dir)
		d.mu.Lock()
	}
	for {
		ds := d.dirs[dir]
		if ds.result != nil && ds.result.Gen == ds.gen {
			r := ds.result
			d.mu.Unlock()
			return r, nil
		}
		ch := ds.done
		d.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		d.mu.Lock()
	}
}
