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
// jit.Jit call contains the byte offset off of file path, or nil.
func (r *pkgResult) tracedAt(path string, off int) (*tracedFunc, span) {
	for _, tf := range r.traced {
		spans := append(append([]span{tf.nameSpan}, tf.refs...), tf.jitCalls...)
		for _, sp := range spans {
			if sp.file == path && sp.start <= off && off <= sp.end {
				return tf, sp
			}
		}
	}
	return nil, span{}
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
