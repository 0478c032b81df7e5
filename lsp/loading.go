package lsp

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
	"time"

	"go.lsp.dev/protocol"
)

// progressDelay is how long a dependency load may take before the
// client is shown work-done progress for it (a variable for the tests).
var progressDelay = 500 * time.Millisecond

// loadReporting loads dir's universe. A load that takes a while (an empty
// build cache compiles every dependency) is shown as work-done progress
// with the number of packages and the time so far, and the open files'
// syntax-level findings (the //jit:args syntax) are published at once,
// before types are known, if dir has no findings yet.
func (d *diagnoser) loadReporting(dir string, extra []string, docs map[string]*document, ds *dirState) (*Universe, error) {
	d.mu.Lock()
	first := ds.result == nil
	d.mu.Unlock()
	if first && !d.s.caps().pullDiagnostics {
		d.publishSyntax(docs)
	}
	done := make(chan struct{})
	reported := make(chan struct{})
	go func() {
		defer close(reported)
		d.reportLoad(dir, done)
	}()
	u, err := loadUniverse(d.ctx, dir, extra, d.s.previews.GoEnv())
	close(done)
	<-reported
	return u, err
}

// reportLoad shows the progress of a load until done is closed.
func (d *diagnoser) reportLoad(dir string, done <-chan struct{}) {
	select {
	case <-done:
		return
	case <-time.After(progressDelay):
	}
	start := time.Now().Add(-progressDelay)
	pr := d.s.startProgress(d.ctx, "jitls: loading dependencies")
	count := make(chan int, 1)
	go func() { count <- d.countDeps(dir) }()
	n := 0
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		msg := fmt.Sprintf("%s: %d s", dir, int(time.Since(start).Seconds()))
		if n > 0 {
			msg = fmt.Sprintf("%s: %d packages (compiling those not in the build cache), %d s", dir, n, int(time.Since(start).Seconds()))
		}
		pr.report(msg)
		select {
		case <-done:
			pr.end(fmt.Sprintf("loaded in %.1f s", time.Since(start).Seconds()))
			return
		case n = <-count:
		case <-tick.C:
		}
	}
}

// countDeps returns how many packages the package in dir depends on
// (go list -deps, which compiles nothing), or 0 if that fails.
func (d *diagnoser) countDeps(dir string) int {
	out, err := d.s.previews.Go(d.ctx, dir, "list", "-deps", "-test", "-f", "{{.ImportPath}}", ".")
	if err != nil {
		return 0
	}
	return strings.Count(string(out), "\n")
}

// publishSyntax publishes the syntax-level findings of open files.
func (d *diagnoser) publishSyntax(docs map[string]*document) {
	for u, list := range syntaxDiags(docs) {
		d.publish(u, list, list[0].version)
	}
}

// syntaxDiags returns the syntax-level findings of open files: what can
// be reported before (or without) the package's types.
func syntaxDiags(docs map[string]*document) map[protocol.DocumentURI][]storedDiag {
	out := map[protocol.DocumentURI][]storedDiag{}
	for path, doc := range docs {
		fset := token.NewFileSet()
		f, _ := parser.ParseFile(fset, path, doc.text, parser.ParseComments|parser.SkipObjectResolution)
		if f == nil {
			continue
		}
		for _, p := range SyntaxProblems(f, fset) {
			out[doc.uri] = append(out[doc.uri], p.diagnostic(doc.mapper(), doc.version))
		}
	}
	return out
}
