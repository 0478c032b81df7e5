package lsp

import (
	"path/filepath"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/previewer"
	"github.com/jitlint/jitlint/internal/textdoc"
	"github.com/jitlint/jitlint/jit/preview/result"
)

// jaxprLink ties a line of a jaxpr printed with sources (previewResult.
// JaxprSources) to the Go line that staged the equation ending there.
type jaxprLink struct {
	JaxprLine int               `json:"jaxprLine"` // 0-based line in jaxprSources
	Location  protocol.Location `json:"location"`
}

// jaxprLinks returns a link for every line of r.JaxprSources that ends with
// an equation's "# file.go:line"; the file's full path comes from r.Sources.
func jaxprLinks(r *result.Preview) []jaxprLink {
	full := map[string]string{} // "file.go:12" → absolute path
	for _, e := range r.Sources {
		if e.File != "" {
			full[filepath.Base(e.File)+":"+strconv.Itoa(e.Line)] = e.File
		}
	}
	var links []jaxprLink
	for i, l := range strings.Split(r.JaxprSources, "\n") {
		_, where := previewer.SplitSource(l)
		path, ok := full[where]
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(where[strings.LastIndexByte(where, ':')+1:])
		pos := protocol.Position{Line: uint32(n - 1)}
		links = append(links, jaxprLink{JaxprLine: i, Location: protocol.Location{URI: textdoc.FileURI(path), Range: protocol.Range{Start: pos, End: pos}}})
	}
	return links
}
