package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/textdoc"
)

// ignoreFix is the quick fix that suppresses one finding of analyzer: it
// inserts "//jitlint:ignore <analyzer> <reason>" on a line of its own
// above the finding's line, indented like it (see docs/analyzers.md for
// the directive). The reason is a snippet placeholder for clients with
// snippet edits, and the text "<reason>" for the others.
func ignoreFix(analyzer string, u protocol.DocumentURI, m *textdoc.Mapper, offset int) quickFix {
	start, content := m.LineStart(offset), m.Content()
	indent := start
	for indent < len(content) && (content[indent] == ' ' || content[indent] == '\t') {
		indent++
	}
	prefix := string(content[start:indent]) + "//jitlint:ignore " + analyzer + " "
	at := m.Position(start)
	edit := fixEdit{
		TextEdit: protocol.TextEdit{Range: protocol.Range{Start: at, End: at}, NewText: prefix + "<reason>\n"},
		snippet:  escapeSnippet(prefix) + "${1:reason}\n",
	}
	return quickFix{
		title: fmt.Sprintf("Ignore this %s finding (//jitlint:ignore)", analyzer),
		edits: map[protocol.DocumentURI][]fixEdit{u: {edit}},
	}
}

// escapeSnippet escapes the characters that are syntax in LSP snippets.
func escapeSnippet(s string) string { return snippetEscaper.Replace(s) }

var snippetEscaper = strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`)
