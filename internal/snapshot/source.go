package snapshot

import (
	"os"
	"path/filepath"

	"github.com/jitlint/jitlint/internal/previewer"
)

// Previews are built by internal/previewer from explicit inputs: the
// package as analysed (Source) and the functions to trace (Target).

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

// Source is the snapshot's package as a preview builds it: its files as
// analysed (the open buffers' text), its test files (open or on disk), and
// the files its build depends on besides (module-local dependencies,
// go.mod, go.sum). It needs a snapshot with a Parsed package.
func (s *Snapshot) Source() *previewer.Source {
	files := map[string][]byte{}
	for path, c := range s.Parsed.Contents {
		files[path] = c
	}
	tests, _ := filepath.Glob(filepath.Join(s.Dir, "*_test.go"))
	for _, t := range tests {
		if f, ok := s.Overlay[t]; ok {
			files[t] = f.Content
		} else if b, err := os.ReadFile(t); err == nil {
			files[t] = b
		}
	}
	deps := s.Universe.local
	if m := s.Universe.module; m != nil && m.GoMod != "" {
		deps = append(deps[:len(deps):len(deps)], m.GoMod, filepath.Join(filepath.Dir(m.GoMod), "go.sum"))
	}
	return &previewer.Source{Dir: s.Dir, Name: s.Universe.name, Types: s.Parsed.Pkg.Types, Files: files, Deps: deps}
}
