package lsp

import (
	"context"
	"fmt"
	"path/filepath"

	"go.lsp.dev/protocol"
)

// resultFor waits for the analysis of the package containing u.
func (s *Server) resultFor(ctx context.Context, u protocol.DocumentURI) (*pkgResult, string, error) {
	path, err := filePath(u)
	if err != nil {
		return nil, "", err
	}
	res, err := s.diags.waitResult(ctx, filepath.Dir(path))
	if err != nil {
		return nil, "", err
	}
	if res.pp == nil {
		if res.err != nil {
			return nil, "", res.err
		}
		return nil, "", fmt.Errorf("no analysis of %s is available", u)
	}
	return res, path, nil
}

// tracedAt returns the traced function whose name (declared or used) or
// jit.Jit or jit.MakeJaxpr call contains the byte offset off of file path,
// or the transformed copy whose transformation call (or the jit.Jit call
// of it) does; the innermost such span wins (F in jit.Vmap(F) is F, the
// rest of the call its Vmap). nil when there is none.
func (r *pkgResult) tracedAt(path string, off int) (*tracedFunc, span) {
	var found *tracedFunc
	var at span
	consider := func(tf *tracedFunc, spans []span) {
		for _, sp := range spans {
			if sp.file == path && sp.start <= off && off <= sp.end && (found == nil || sp.end-sp.start < at.end-at.start) {
				found, at = tf, sp
			}
		}
	}
	for _, tf := range r.traced {
		consider(tf, append(append([]span{tf.nameSpan}, tf.refs...), tf.jitCalls...))
	}
	for _, tf := range r.transforms {
		consider(tf, tf.xform.spans)
	}
	return found, at
}

// tracedNamed returns the traced function called name, or nil.
func (r *pkgResult) tracedNamed(name string) *tracedFunc {
	for _, tf := range r.traced {
		if tf.name == name {
			return tf
		}
	}
	return nil
}
