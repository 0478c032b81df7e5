package lsp

import (
	"context"
	"fmt"

	"github.com/jitlint/jitlint/internal/previewer"
	"github.com/jitlint/jitlint/jit/preview/result"
)

// cachedJaxpr returns tf's jaxpr preview for res's current content if it
// was already computed, nil otherwise; it never builds or runs anything.
func (s *Server) cachedJaxpr(res *pkgResult, tf *tracedFunc) (*result.Preview, error) {
	pkg, err := s.harnesses.prepare(res, res.previewable, func() map[string]*document { return s.snapshotDocs(res.dir) })
	if err != nil {
		return nil, err
	}
	return s.previews.Cached(pkg, tf.key(), result.Jaxpr), nil
}

// runPreview checks trust and the signature, then previews tf, showing
// the progress to the client.
func (s *Server) runPreview(ctx context.Context, res *pkgResult, tf *tracedFunc, mode result.Mode) (*result.Preview, error) {
	if err := s.mayRun(tf.file); err != nil {
		return nil, err
	}
	if tf.sigErr != "" {
		return nil, fmt.Errorf("%s cannot be previewed: %s", tf.title(), tf.sigErr)
	}
	pkg, err := s.harnesses.prepare(res, res.previewable, func() map[string]*document { return s.snapshotDocs(res.dir) })
	if err != nil {
		return nil, err
	}
	if r := s.previews.Cached(pkg, tf.key(), mode); r != nil {
		return r, nil
	}
	title := "jitls: tracing " + tf.title()
	if mode == result.Measure {
		title = "jitls: measuring the compile cost of " + tf.title()
	}
	pr := s.startProgress(ctx, title)
	r, err := s.previews.Preview(ctx, pkg, tf.key(), mode, pr.report)
	if err != nil {
		pr.end("failed")
		return nil, err
	}
	pr.end("done")
	return r, nil
}

// userError is the failure the harness reported for tf, or nil.
func userError(tf *tracedFunc, r *result.Preview) error {
	pos := ""
	if tf.xform != nil {
		pos = tf.xform.pos
	}
	return previewer.UserError(tf.title(), tf.signature(), pos, r)
}
