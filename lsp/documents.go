package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/jitlint/jitlint/internal/snapshot"
)

// document is an open text buffer as the client last described it. It is
// never modified: an edit replaces it with a new document.
type document struct {
	uri     protocol.DocumentURI
	path    string // absolute file path; "" for non-file: URIs
	version int32
	text    []byte

	linesOnce sync.Once
	lines     *mapper // built by mapper
}

// mapper returns the line index of text, built once and shared by the
// analysis of this version and the edit that replaces it.
func (d *document) mapper() *mapper {
	d.linesOnce.Do(func() { d.lines = newMapper(d.text) })
	return d.lines
}

// errNotFile is filePath's error for a URI of another scheme than file:
// (an untitled buffer), which jitls leaves alone.
var errNotFile = errors.New("not a file: URI; jitls only analyses files on disk")

// filePath returns the absolute path that a file: URI names, or an error
// that says why it names none: errNotFile for other schemes, else what is
// wrong with it (a bad percent-encoding, another host, a relative path).
// It is the one place that maps URIs to files.
func filePath(u protocol.DocumentURI) (string, error) {
	pu, err := url.Parse(string(u))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if !strings.HasPrefix(strings.ToLower(string(u)), "file:") {
			return "", fmt.Errorf("%s: %w", u, errNotFile)
		}
		return "", fmt.Errorf("%s is not a valid file: URI (%v)", u, err)
	}
	if pu.Scheme != "file" {
		return "", fmt.Errorf("%s: %w", u, errNotFile)
	}
	if pu.Host != "" && pu.Host != "localhost" {
		return "", fmt.Errorf("%s names a file on the host %s; jitls only analyses local files", u, pu.Host)
	}
	p := pu.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' { // file:///C:/dir on Windows
		p = p[1:]
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%s does not name an absolute path", u)
	}
	return filepath.Clean(p), nil
}

// uriProblem returns the diagnostic that says why jitls cannot analyse the
// document at u, a file: URI that names no local file, or nil.
func uriProblem(u protocol.DocumentURI, version int32) []storedDiag {
	_, err := filePath(u)
	if err == nil || errors.Is(err, errNotFile) {
		return nil
	}
	return []storedDiag{{version: version, diag: protocol.Diagnostic{
		Severity: protocol.DiagnosticSeverityError, Source: "jitls", Code: "uri",
		Message: err.Error() + ": jitls cannot map it to a file, so it does not analyse this document",
	}}}
}

// fileURI returns the file: URI of an absolute path.
func fileURI(path string) protocol.DocumentURI { return protocol.DocumentURI(uri.File(path)) }

func (s *Server) didOpen(ctx context.Context, raw json.RawMessage) error {
	var p protocol.DidOpenTextDocumentParams
	if err := decodeParams("didOpen", raw, &p); err != nil {
		return err
	}
	doc := &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	doc.path, _ = filePath(p.TextDocument.URI)
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

// contentChange is TextDocumentContentChangeEvent with a pointer Range, so
// that a full replacement (no range) can be told from an edit at 0:0.
type contentChange struct {
	Range *protocol.Range `json:"range"`
	Text  string          `json:"text"`
}

// apply returns the text after changes, applied in order: each range is in
// the text the changes before it left.
func (d *document) apply(changes []contentChange) ([]byte, error) {
	text := d.text
	for i, c := range changes {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		m := d.mapper()
		if i > 0 { // an earlier change in this batch changed text
			m = newMapper(text)
		}
		start, err := m.offset(c.Range.Start)
		if err == nil {
			var end int
			end, err = m.offset(c.Range.End)
			if err == nil && end < start {
				err = fmt.Errorf("range end %v is before its start %v", c.Range.End, c.Range.Start)
			}
			if err == nil {
				text = slices.Concat(text[:start], []byte(c.Text), text[end:])
			}
		}
		if err != nil {
			return nil, fmt.Errorf("change %d: %v", i, err)
		}
	}
	return text, nil
}

func (s *Server) didChange(ctx context.Context, raw json.RawMessage) error {
	var p struct {
		TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
		ContentChanges []contentChange                          `json:"contentChanges"`
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
	text, err := old.apply(p.ContentChanges)
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
	path, err := filePath(p.TextDocument.URI)
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
