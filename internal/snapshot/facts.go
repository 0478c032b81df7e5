package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/factpass"
	"github.com/jitlint/jitlint/internal/jitapi"
)

// Cross-package findings need the analysis facts of the dependencies
// (jitlint computes them for every package it loads). jitls computes the
// facts of the dependencies that traced.NeedsFacts names (those that
// import jit, and the local module's packages that may declare a bucket
// chooser) from their source on disk, with the analyzers that export facts, in
// dependency order, and keeps them by content: the key of a package is a
// hash of the analyzers, its files and its dependencies' keys, so that a
// dependency is analysed again only when it, or something it depends on,
// changed on disk (the universe is reloaded when a file is saved).

// factCache holds the dependencies' facts of a server, by content key.
type factCache struct {
	mu    sync.Mutex
	byKey map[string][]factpass.Record // key → the package's own facts
}

func newFactCache() *factCache { return &factCache{byKey: map[string][]factpass.Record{}} }

// depFacts returns the facts of u's dependencies for analyzers, computing
// those not cached; the answer is kept in u for the same analyzers. Only
// one analysis of u's directory runs at a time, so u needs no lock.
func (c *factCache) depFacts(u *Universe, analyzers []*analysis.Analyzer) (factpass.Facts, error) {
	if u.facts != nil && slices.Equal(u.factsFor, analyzers) {
		return u.facts, nil
	}
	withFacts := factpass.Producers(analyzers)
	all := factpass.Facts{}
	if len(withFacts) == 0 {
		u.facts, u.factsFor = all, analyzers
		return all, nil
	}
	suite := make([]string, len(withFacts))
	for i, a := range withFacts {
		suite[i] = a.Name
	}
	slices.Sort(suite)
	w := &factWalk{c: c, u: u, analyzers: withFacts, suite: strings.Join(suite, ","), keys: map[*packages.Package]string{}, own: map[*packages.Package][]factpass.Record{}, parsed: map[*packages.Package]*parsed{}}
	for _, path := range slices.Sorted(maps.Keys(u.imports)) {
		if _, err := w.visit(u.imports[path]); err != nil {
			return nil, err
		}
	}
	for _, recs := range w.own {
		all.Add(recs)
	}
	u.facts, u.factsFor = all, analyzers
	return all, nil
}

// factWalk computes the facts of one universe's dependencies.
type factWalk struct {
	c         *factCache
	u         *Universe
	analyzers []*analysis.Analyzer
	suite     string
	keys      map[*packages.Package]string            // "" for packages without facts below them
	own       map[*packages.Package][]factpass.Record // facts of each package that has some
	parsed    map[*packages.Package]*parsed           // syntax of the packages read so far
}

// visit returns the key of q's facts ("" when neither q nor its
// dependencies can have any), computing them after its dependencies'.
func (w *factWalk) visit(q *packages.Package) (string, error) {
	if key, ok := w.keys[q]; ok {
		return key, nil
	}
	w.keys[q] = "" // cycles (impossible in Go) end here
	h := sha256.New()
	fmt.Fprintf(h, "suite %s\npkg %s\n", w.suite, q.ID)
	factsBelow := false
	deps := factpass.Facts{}
	for _, path := range slices.Sorted(maps.Keys(q.Imports)) {
		dep := q.Imports[path]
		key, err := w.visit(dep)
		if err != nil {
			return "", err
		}
		if key != "" {
			factsBelow = true
			fmt.Fprintf(h, "dep %s %s\n", path, key)
		}
	}
	imports := slices.ContainsFunc(slices.Collect(maps.Keys(q.Imports)), jitapi.IsJitPath)
	needs := imports
	var srcs [][]byte
	if imports || traced.LocalModule(factpass.Module(q.Module)) {
		var err error
		if srcs, err = readSources(q); err != nil {
			return "", err
		}
		needs = imports || traced.NeedsFacts(false, factpass.Module(q.Module), w.parse(q, srcs).files)
	}
	if !needs && !factsBelow {
		return "", nil
	}
	if needs {
		for i, f := range q.CompiledGoFiles {
			fmt.Fprintf(h, "file %s %d\n", f, len(srcs[i]))
			h.Write(srcs[i])
		}
	}
	key := hex.EncodeToString(h.Sum(nil))
	w.keys[q] = key
	if !needs {
		return key, nil // facts pass through q from below
	}
	w.c.mu.Lock()
	recs, ok := w.c.byKey[key]
	w.c.mu.Unlock()
	if !ok {
		// The facts visible to q: those of every package below it.
		var below func(p *packages.Package, seen map[*packages.Package]bool)
		below = func(p *packages.Package, seen map[*packages.Package]bool) {
			for _, d := range p.Imports {
				if !seen[d] {
					seen[d] = true
					deps.Add(w.own[d])
					below(d, seen)
				}
			}
		}
		below(q, map[*packages.Package]bool{})
		var err error
		if recs, err = w.analyze(q, srcs, deps); err != nil {
			return "", err
		}
		w.c.mu.Lock()
		w.c.byKey[key] = recs
		w.c.mu.Unlock()
	}
	w.own[q] = recs
	return key, nil
}

// readSources reads q's Go files.
func readSources(q *packages.Package) ([][]byte, error) {
	srcs := make([][]byte, len(q.CompiledGoFiles))
	for i, f := range q.CompiledGoFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading %s for its facts: %v", f, err)
		}
		srcs[i] = b
	}
	return srcs, nil
}

// parsed is a package's syntax, parsed once for both the look at its
// declarations (NeedsFacts) and the analysis.
type parsed struct {
	fset      *token.FileSet
	files     []*ast.File
	illFormed bool
	err       error
}

// parse parses q's sources, once per walk.
func (w *factWalk) parse(q *packages.Package, srcs [][]byte) *parsed {
	if p, ok := w.parsed[q]; ok {
		return p
	}
	p := &parsed{fset: token.NewFileSet()}
	for i, f := range q.CompiledGoFiles {
		file, err := parser.ParseFile(p.fset, f, srcs[i], parser.ParseComments|parser.SkipObjectResolution)
		if file == nil {
			p.err = fmt.Errorf("parsing %s for its facts: %v", f, err)
			break
		}
		p.illFormed = p.illFormed || err != nil
		p.files = append(p.files, file)
	}
	w.parsed[q] = p
	return p
}

// analyze type-checks q from source against its dependencies' export
// data and returns the facts the analyzers export for it.
func (w *factWalk) analyze(q *packages.Package, srcs [][]byte, deps factpass.Facts) ([]factpass.Record, error) {
	p := w.parse(q, srcs)
	if p.err != nil {
		return nil, p.err
	}
	fset, syntax, illFormed := p.fset, p.files, p.illFormed
	pkg := checkPackage(q.Module, w.u.sizes, fset, q.PkgPath, q.Name, syntax, func(path string) (*types.Package, error) {
		if d := q.Imports[path]; d != nil && d.Types != nil {
			return d.Types, nil
		}
		return nil, fmt.Errorf("no type information for %q", path)
	}, illFormed)
	run, err := runAnalyzers(w.analyzers, pkg, deps)
	if err != nil {
		return nil, fmt.Errorf("computing the facts of %s: %v", q.PkgPath, err)
	}
	return run.exported, nil
}
