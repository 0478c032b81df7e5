package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/richtext"
	"github.com/jitlint/jitlint/internal/textdoc"
)

// The trust gate: a preview, a measurement, an inlay hint or anything else
// that builds and runs the user's code does so only for a file inside one
// of the workspace folders, and only when the client said the workspace is
// trusted (allowCodeExecution, which VS Code sets from its workspace
// trust). The folders are initialize's workspaceFolders (else its rootUri,
// else its rootPath), kept up to date by workspace/didChangeWorkspaceFolders.

// trustError says why the server does not run code for a file.
type trustError struct {
	untrusted bool     // the client did not allow code execution
	file      string   // the file, outside every folder ("" with untrusted)
	folders   []string // the workspace folders
}

// describe writes the explanation into m.
func (e *trustError) describe(m *richtext.Text) *richtext.Text {
	switch {
	case e.untrusted:
		return m.Prose("Previews and compile-cost measurements build and run your code, so jitls only runs them in a trusted workspace. " +
			"Enable them by starting jitls with the initializationOptions ").Code(`{"allowCodeExecution": true}`).
			Prose(" (VS Code: trust the workspace; Neovim: ").Code("init_options = { allowCodeExecution = true }").Prose(").")
	case len(e.folders) == 0:
		return m.Prose("jitls builds and runs code only for files inside a trusted workspace folder, and the editor named no workspace folder " +
			"(initialize had no workspaceFolders and no rootUri), so ").Code(e.file).Prose(" is outside them. Open its folder as the workspace to preview it.")
	}
	m.Code(e.file).Prose(" is outside the trusted workspace folders (")
	for i, f := range e.folders {
		if i > 0 {
			m.Prose(", ")
		}
		m.Code(f)
	}
	return m.Prose("), so jitls does not build or run it: previews run code only for files inside a trusted workspace folder. " +
		"Add its folder to the workspace to preview it.")
}

// Error is the explanation as plain text.
func (e *trustError) Error() string {
	return strings.TrimSpace(e.describe(new(richtext.Text)).Plaintext())
}

// mayRun returns nil if the server may build and run code for file (an
// absolute path), else a *trustError that says why not.
func (s *Server) mayRun(file string) error {
	s.mu.Lock()
	trusted, folders := s.settings.AllowCodeExecution, s.folders
	s.mu.Unlock()
	if !trusted {
		return &trustError{untrusted: true}
	}
	if slices.ContainsFunc(folders, func(f string) bool { return within(f, file) }) {
		return nil
	}
	return &trustError{file: file, folders: folders}
}

// within reports whether path is folder or inside it, as written or with
// symbolic links resolved (an editor may name either).
func within(folder, path string) bool {
	inside := func(folder, path string) bool {
		rel, err := filepath.Rel(folder, path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
	}
	if inside(folder, path) {
		return true
	}
	rf, err1 := filepath.EvalSymlinks(folder)
	rd, err2 := filepath.EvalSymlinks(filepath.Dir(path))
	return err1 == nil && err2 == nil && inside(rf, filepath.Join(rd, filepath.Base(path)))
}

// workspaceFolder is LSP's WorkspaceFolder.
type workspaceFolder struct {
	URI  protocol.DocumentURI `json:"uri"`
	Name string               `json:"name"`
}

// workspaceRoots is the part of InitializeParams that names the workspace.
type workspaceRoots struct {
	WorkspaceFolders *[]workspaceFolder `json:"workspaceFolders"`
	RootURI          *string            `json:"rootUri"`
	RootPath         *string            `json:"rootPath"`
}

// folderPaths returns the workspace folders initialize names, as paths.
// A folder that is not a file: URI is logged and left out.
func (s *Server) folderPaths(w workspaceRoots) []string {
	var folders []workspaceFolder
	switch {
	case w.WorkspaceFolders != nil:
		folders = *w.WorkspaceFolders
	case w.RootURI != nil && *w.RootURI != "":
		folders = []workspaceFolder{{URI: protocol.DocumentURI(*w.RootURI)}}
	case w.RootPath != nil && *w.RootPath != "":
		return []string{filepath.Clean(*w.RootPath)}
	}
	return s.paths(folders)
}

// paths maps workspace folders to paths, logging those it cannot map.
func (s *Server) paths(folders []workspaceFolder) []string {
	var out []string
	for _, f := range folders {
		p, err := textdoc.FilePath(f.URI)
		if err != nil {
			s.logf("jitls: ignoring the workspace folder %q: %v", f.Name, err)
			continue
		}
		out = append(out, p)
	}
	return out
}

// didChangeWorkspaceFolders updates the folders that trust covers.
func (s *Server) didChangeWorkspaceFolders(ctx context.Context, raw json.RawMessage) error {
	var p struct {
		Event struct {
			Added   []workspaceFolder `json:"added"`
			Removed []workspaceFolder `json:"removed"`
		} `json:"event"`
	}
	if err := decodeParams("workspace/didChangeWorkspaceFolders", raw, &p); err != nil {
		return err
	}
	added, removed := s.paths(p.Event.Added), s.paths(p.Event.Removed)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.folders = slices.DeleteFunc(slices.Clone(s.folders), func(f string) bool { return slices.Contains(removed, f) })
	for _, f := range added {
		if !slices.Contains(s.folders, f) {
			s.folders = append(s.folders, f)
		}
	}
	return nil
}
