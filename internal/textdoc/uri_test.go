package textdoc

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

func rng(l1, c1, l2, c2 uint32) *protocol.Range {
	return &protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}

// TestApplyChanges checks a batch of changes where each range refers to
// the text left by the changes before it (the first one's line index is
// the document's own; later ones need a fresh one).
func TestApplyChanges(t *testing.T) {
	text := []byte("ab\ncd\n")
	apply := func(changes []Change) ([]byte, error) { return Apply(text, NewMapper(text), changes) }
	got, err := apply([]Change{
		{Range: rng(0, 0, 0, 0), Text: "X\n"}, // "X\nab\ncd\n"
		{Range: rng(2, 0, 2, 1), Text: "Z"},   // line 2 is "cd" only after the first change
	})
	if err != nil || string(got) != "X\nab\nZd\n" {
		t.Errorf("apply = %q, %v; want %q", got, err, "X\nab\nZd\n")
	}
	got, err = apply([]Change{{Text: "full\n"}, {Range: rng(0, 4, 0, 4), Text: "!"}})
	if err != nil || string(got) != "full!\n" {
		t.Errorf("apply = %q, %v; want %q", got, err, "full!\n")
	}
	if string(text) != "ab\ncd\n" {
		t.Errorf("apply modified the document's text: %q", text)
	}
	got, err = apply([]Change{{Range: rng(0, 1, 0, 2), Text: "Q"}, {Range: rng(5, 0, 5, 1), Text: "?"}})
	if err == nil || !strings.Contains(err.Error(), "change 1: line 6 is past the end") {
		t.Errorf("out-of-range second change: %q, %v", got, err)
	}
	if _, err := apply([]Change{{Range: rng(1, 1, 0, 0)}}); err == nil || !strings.Contains(err.Error(), "before its start") {
		t.Errorf("reversed range: %v", err)
	}
}

// TestFilePath maps URIs to files without panicking, and says what is
// wrong with those that name none.
func TestFilePath(t *testing.T) {
	for _, c := range []struct {
		uri, path, err string
	}{
		{"file:///home/u/x.go", "/home/u/x.go", ""},
		{"file:///home/u/a%20b/x.go", "/home/u/a b/x.go", ""},
		{"file://localhost/home/u/x.go", "/home/u/x.go", ""},
		{"file:///home/u/../v/./x.go", "/home/v/x.go", ""},
		{"untitled:Untitled-1", "", "not a file: URI"},
		{"file:///home/u/%ZZ/x.go", "", `invalid URL escape "%ZZ"`},
		{"file://server/share/x.go", "", "on the host server"},
		{"file:x.go", "", "does not name an absolute path"},
	} {
		path, err := FilePath(protocol.DocumentURI(c.uri))
		switch {
		case c.err == "" && (err != nil || path != c.path):
			t.Errorf("filePath(%s) = %q, %v; want %q", c.uri, path, err, c.path)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("filePath(%s) = %q, %v; want an error containing %q", c.uri, path, err, c.err)
		}
	}
}
