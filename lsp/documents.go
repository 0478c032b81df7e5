package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/snapshot"
	"github.com/jitlint/jitlint/internal/textdoc"
)

// document is an open text buffer as the client last described it. It is
// never modified: an edit replaces it with a new document.
type document struct {
	uri     protocol.DocumentURI
	path    string // absolute file path; "" for non-file: URIs
	version int32
	text    []byte

	linesOnce sync.Once
	lines     *textdoc.Mapper // built by mapper
}

// mapper returns the line index of text, built once and shared by the
// analysis of this version and the edit that replaces it.
func (d *document) mapper() *textdoc.Mapper {
	d.linesOnce.Do(func() { d.lines = textdoc.NewMapper(d.text) })
	return d.lines
}

// uriProblem returns the diagnostic that says why jitls cannot analyse the
// document at u, a file: URI that names no local file, or nil.
func uriProblem(u protocol.DocumentURI, version int32) []storedDiag {
	_, err := textdoc.FilePath(u)
	if err == nil || errors.Is(err, textdoc.ErrNotFile) {
		return nil
	}
	return []storedDiag{{version: version, diag: protocol.Diagnostic{
		Severity: protocol.DiagnosticSeverityError, Source: "jitls", Code: "uri",
		Message: err.Error() + ": jitls cannot map it to a file, so it does not analyse this document",
	}}}
}

func (s *Server) didOpen(ctx context.Context, raw json.RawMessage) error {
	var p protocol.DidOpenTextDocumentParams
	if err := decodeParams("didOpen", raw, &p); err != nil {
		return err
	}
	doc := &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	doc.path, _ = textdoc.FilePath(p.TextDocument.URI)
	s.mu.Lock()
	s.docs[doc.uri] = doc
	s.mu.Unlock()
	if list := uriProblem(doc.uri, doc.version); list != nil {
		if !s.caps().pullDiagnostics {
			s.publish(doc.uri, list, doc.version)
		}
		return errors.New(list[0].diag.Message)
	}
	s.documentChanged(doc)
	return nil
}

func (s *Server) didChange(ctx context.Context, raw json.RawMessage) error {
	var p struct {
		TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
		ContentChanges []textdoc.Change                         `json:"contentChanges"`
	}
	if err := decodeParams("didChange", raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	old := s.docs[p.TextDocument.URI]
	s.mu.Unlock()
	if old == nil {
		return fmt.Errorf("change to %s, which is not open (send didOpen first); change ignored", p.TextDocument.URI)
	}
	text, err := textdoc.Apply(old.text, old.mapper(), p.ContentChanges)
	if err != nil {
		return fmt.Errorf("%s (version %d): %v; the document is out of sync, close and reopen it", p.TextDocument.URI, p.TextDocument.Version, err)
	}
	doc := &document{uri: old.uri, path: old.path, version: p.TextDocument.Version, text: text}
	s.mu.Lock()
	s.docs[doc.uri] = doc
	s.mu.Unlock()
	s.documentChanged(doc)
	return nil
}

func (s *Server) didClose(ctx context.Context, raw json.RawMessage) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decodeParams("didClose", raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	doc := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	if doc != nil && doc.path != "" {
		s.view.ScheduleBackground(filepath.Dir(doc.path))
	}
	return nil
}

func (s *Server) didSave(ctx context.Context, raw json.RawMessage) error {
	var p protocol.DidSaveTextDocumentParams
	if err := decodeParams("didSave", raw, &p); err != nil {
		return err
	}
	path, err := textdoc.FilePath(p.TextDocument.URI)
	if err != nil {
		return nil
	}
	// A saved file may be a dependency of other packages: their cached
	// dependency types are stale now.
	s.view.InvalidateDependents(filepath.Dir(path))
	return nil
}

func (s *Server) didChangeWatchedFiles(ctx context.Context, raw json.RawMessage) error {
	s.view.InvalidateDependents("")
	return nil
}

// documentChanged schedules diagnostics for the package of a Go file.
func (s *Server) documentChanged(doc *document) {
	if doc.path == "" || !strings.HasSuffix(doc.path, ".go") {
		return
	}
	s.view.Schedule(filepath.Dir(doc.path))
}

// overlay returns the open documents in dir, by absolute path.
func (s *Server) overlay(dir string) map[string]snapshot.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]snapshot.File{}
	for _, d := range s.docs {
		if d.path != "" && filepath.Dir(d.path) == dir {
			out[d.path] = snapshot.File{Content: d.text, Version: d.version}
		}
	}
	return out
}

// openDoc returns the open document for u, or nil.
func (s *Server) openDoc(u protocol.DocumentURI) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[u]
}

func (s *Server) didChangeConfiguration(ctx context.Context, raw json.RawMessage) error {
	s.mu.Lock()
	cur := s.settings
	s.mu.Unlock()
	next, err := parseConfigChange(raw, cur)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.settings = next
	s.analyzers = s.suite(next)
	s.mu.Unlock()
	s.view.RescheduleAll()
	return nil
}
