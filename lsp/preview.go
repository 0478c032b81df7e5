package lsp

import (
	"context"
	"fmt"

	"github.com/jitlint/jitlint/internal/previewer"
	"github.com/jitlint/jitlint/internal/snapshot"
	"github.com/jitlint/jitlint/jit/preview/result"
)

// cachedJaxpr returns tf's jaxpr preview for res's current content if it
// was already computed, nil otherwise; it never builds or runs anything.
func (s *Server) cachedJaxpr(res *pkgResult, tf *snapshot.Func) (*result.Preview, error) {
	pkg, err := s.harnesses.prepare(res, res.Previewable)
	if err != nil {
		return nil, err
	}
	return s.previews.Cached(pkg, tf.Key(), result.Jaxpr), nil
}

// runPreview checks trust and the signature, then previews tf, showing
// the progress to the client.
func (s *Server) runPreview(ctx context.Context, res *pkgResult, tf *snapshot.Func, mode result.Mode) (*result.Preview, error) {
	if err := s.mayRun(tf.File); err != nil {
		return nil, err
	}
	if tf.SigErr != "" {
		return nil, fmt.Errorf("%s cannot be previewed: %s", tf.Title(), tf.SigErr)
	}
	pkg, err := s.harnesses.prepare(res, res.Previewable)
	if err != nil {
		return nil, err
	}
	if r := s.previews.Cached(pkg, tf.Key(), mode); r != nil {
		return r, nil
	}
	title := "jitls: tracing " + tf.Title()
	if mode == result.Measure {
		title = "jitls: measuring the compile cost of " + tf.Title()
	}
	pr := s.startProgress(ctx, title)
	r, err := s.previews.Preview(ctx, pkg, tf.Key(), mode, pr.report)
	if err != nil {
		pr.end("failed")
		return nil, err
	}
	pr.end("done")
	return r, nil
}

// userError is the failure the harness reported for tf, or nil.
func userError(tf *snapshot.Func, r *result.Preview) error {
	pos := ""
	if tf.Xform != nil {
		pos = tf.Xform.Pos
	}
	return previewer.UserError(tf.Title(), tf.Signature(), pos, r)
}
