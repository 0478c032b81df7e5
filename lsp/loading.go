package lsp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jitlint/jitlint/internal/snapshot"
)

// progressDelay is how long a dependency load may take before the
// client is shown work-done progress for it (a variable for the tests).
var progressDelay = 500 * time.Millisecond

// loading runs while the dependencies of dir load (snapshot.Config.Loading).
// A load that takes a while (an empty build cache compiles every
// dependency) is shown as work-done progress with the number of packages
// and the time so far, and the open files' syntax-level findings (the
// //jit:args syntax) are published at once, before types are known, if
// dir has no findings yet.
func (s *Server) loading(ctx context.Context, dir string, first bool, done <-chan struct{}) {
	if first && !s.caps().pullDiagnostics {
		overlay := s.overlay(dir)
		r := s.newResult(&snapshot.Snapshot{Dir: dir, Overlay: overlay, Problems: snapshot.OverlayProblems(overlay)})
		for u, list := range r.diags {
			s.publish(u, list, list[0].version)
		}
	}
	select {
	case <-done:
		return
	case <-time.After(progressDelay):
	}
	start := time.Now().Add(-progressDelay)
	pr := s.startProgress(ctx, "jitls: loading dependencies")
	count := make(chan int, 1)
	go func() { count <- s.countDeps(ctx, dir) }()
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
func (s *Server) countDeps(ctx context.Context, dir string) int {
	out, err := s.previews.Go(ctx, dir, "list", "-deps", "-test", "-f", "{{.ImportPath}}", ".")
	if err != nil {
		return 0
	}
	return strings.Count(string(out), "\n")
}
