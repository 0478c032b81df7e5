package lsp

import (
	"context"
	"fmt"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/textdoc"
)

// resultFor waits for the analysis of the package containing u.
func (s *Server) resultFor(ctx context.Context, u protocol.DocumentURI) (*pkgResult, string, error) {
	path, err := textdoc.FilePath(u)
	if err != nil {
		return nil, "", err
	}
	res, err := s.waitResult(ctx, filepath.Dir(path))
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

// waitResult returns the diagnostics of dir's snapshot once no newer
// analysis is pending.
func (s *Server) waitResult(ctx context.Context, dir string) (*pkgResult, error) {
	snap, err := s.view.Wait(ctx, dir)
	if err != nil {
		return nil, err
	}
	return s.result(snap), nil
}
