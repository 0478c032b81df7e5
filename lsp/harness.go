package lsp

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/jitlint/jitlint/internal/previewer"
)

// Previews are built by internal/previewer from explicit inputs: the
// package as analysed (source) and the functions to trace (target). This
// file makes those inputs from an analysis result.

// Target is tf as the harness generator's input; false if tf cannot be
// previewed.
func (tf *Func) Target() (previewer.Target, bool) {
	if tf.SigErr != "" || tf.Sig == nil {
		return previewer.Target{}, false
	}
	t := previewer.Target{Key: tf.Key(), Func: tf.Name, Sig: tf.Sig, Args: tf.Args, Static: tf.Static}
	if tf.Xform != nil {
		t.Transforms = tf.Xform.Layers
	}
	return t, true
}

// source is res's package as a preview builds it: its files as analysed
// (the open buffers' text), its test files (open or on disk), and the
// files its build depends on besides (module-local dependencies, go.mod,
// go.sum). docs are the open documents of the package's directory.
func source(res *Snapshot, docs map[string]*document) *previewer.Source {
	files := map[string][]byte{}
	for path, c := range res.Parsed.Contents {
		files[path] = c
	}
	tests, _ := filepath.Glob(filepath.Join(res.Dir, "*_test.go"))
	for _, t := range tests {
		if d := docs[t]; d != nil {
			files[t] = d.text
		} else if b, err := os.ReadFile(t); err == nil {
			files[t] = b
		}
	}
	deps := res.Universe.local
	if m := res.Universe.module; m != nil && m.GoMod != "" {
		deps = append(deps[:len(deps):len(deps)], m.GoMod, filepath.Join(filepath.Dir(m.GoMod), "go.sum"))
	}
	return &previewer.Source{Dir: res.Dir, Name: res.Universe.name, Types: res.Parsed.Pkg.Types, Files: files, Deps: deps}
}

// harnesses keeps the build of the harness of a package's previewable
// functions for the latest analysis result that asked for it: inlay hints
// ask for it on every request.
type harnesses struct {
	mu   sync.Mutex
	res  *Snapshot
	last *previewer.Package
}

// prepare returns the build of the harness of funcs, functions of res
// (res.previewable, or a variant of one); docs returns the package's open
// documents.
func (h *harnesses) prepare(res *Snapshot, funcs []*Func, docs func() map[string]*document) (*previewer.Package, error) {
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
	pkg, err := source(res, docs()).Package(targets)
	if err == nil && own {
		h.mu.Lock()
		h.res, h.last = res, pkg
		h.mu.Unlock()
	}
	return pkg, err
}
