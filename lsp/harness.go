package lsp

import (
	"sync"

	"github.com/jitlint/jitlint/internal/previewer"
	"github.com/jitlint/jitlint/internal/snapshot"
)

// harnesses keeps the build of the harness of a package's previewable
// functions for the latest analysis result that asked for it: inlay hints
// ask for it on every request.
type harnesses struct {
	mu   sync.Mutex
	res  *pkgResult
	last *previewer.Package
}

// prepare returns the build of the harness of funcs, functions of res
// (res.Previewable, or a variant of one).
func (h *harnesses) prepare(res *pkgResult, funcs []*snapshot.Func) (*previewer.Package, error) {
	own := len(funcs) == len(res.Previewable) && (len(funcs) == 0 || &funcs[0] == &res.Previewable[0])
	h.mu.Lock()
	if own && h.res == res {
		defer h.mu.Unlock()
		return h.last, nil
	}
	h.mu.Unlock()
	var targets []previewer.Target
	for _, tf := range funcs {
		if t, ok := tf.Target(); ok {
			targets = append(targets, t)
		}
	}
	pkg, err := res.Source().Package(targets)
	if err == nil && own {
		h.mu.Lock()
		h.res, h.last = res, pkg
		h.mu.Unlock()
	}
	return pkg, err
}
