package textdoc

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// ErrNotFile is filePath's error for a URI of another scheme than file:
// (an untitled buffer), which jitls leaves alone.
var ErrNotFile = errors.New("not a file: URI; jitls only analyses files on disk")

// FilePath returns the absolute path that a file: URI names, or an error
// that says why it names none: errNotFile for other schemes, else what is
// wrong with it (a bad percent-encoding, another host, a relative path).
// It is the one place that maps URIs to files.
func FilePath(u protocol.DocumentURI) (string, error) {
	pu, err := url.Parse(string(u))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if !strings.HasPrefix(strings.ToLower(string(u)), "file:") {
			return "", fmt.Errorf("%s: %w", u, ErrNotFile)
		}
		return "", fmt.Errorf("%s is not a valid file: URI (%v)", u, err)
	}
	if pu.Scheme != "file" {
		return "", fmt.Errorf("%s: %w", u, ErrNotFile)
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

// FileURI returns the file: URI of an absolute path.
func FileURI(path string) protocol.DocumentURI { return protocol.DocumentURI(uri.File(path)) }
