package lsp

import (
	"context"
	"fmt"
	"path/filepath"

	"go.lsp.dev/protocol"
)

// resultFor waits for the analysis of the package containing u.
func (s *Server) resultFor(ctx context.Context, u protocol.DocumentURI) (*Snapshot, string, error) {
	path, err := filePath(u)
	if err != nil {
		return nil, "", err
	}
	res, err := s.diags.waitResult(ctx, filepath.Dir(path))
	if err != nil {
		return nil, "", err
	}
	if res.Parsed == nil {
		if res.Err != nil {
			return nil, "", res.Err
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
func (r *Snapshot) tracedAt(path string, off int) (*Func, Span) {
	var found *Func
	var at Span
	consider := func(tf *Func, spans []Span) {
		for _, sp := range spans {
			if sp.File == path && sp.Start <= off && off <= sp.End && (found == nil || sp.End-sp.Start < at.End-at.Start) {
				found, at = tf, sp
			}
		}
	}
	for _, tf := range r.Traced {
		consider(tf, append(append([]Span{tf.NameSpan}, tf.Refs...), tf.JitCalls...))
	}
	for _, tf := range r.Transforms {
		consider(tf, tf.Xform.Spans)
	}
	return found, at
}

// tracedNamed returns the traced function called name, or nil.
func (r *Snapshot) tracedNamed(name string) *Func {
	for _, tf := range r.Traced {
		if tf.Name == name {
			return tf
		}
	}
	return nil
}
