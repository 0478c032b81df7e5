package lsp

import (
	"strings"
)

// markup is rich text built once and rendered as Markdown or as plaintext
// (clientCaps.markup chooses): features write with its methods and never
// put Markdown syntax in their strings.
type markup struct {
	parts []markupPart
}

type markupKind int

const (
	mText   markupKind = iota // plain prose
	mStrong                   // emphasised prose (a title)
	mCode                     // inline code
	mBlock                    // a code block
	mBreak                    // a paragraph break
)

type markupPart struct {
	kind markupKind
	text string
}

func (m *markup) add(k markupKind, s string) *markup {
	m.parts = append(m.parts, markupPart{k, s})
	return m
}

// text appends prose.
func (m *markup) text(s string) *markup { return m.add(mText, s) }

// strong appends emphasised prose.
func (m *markup) strong(s string) *markup { return m.add(mStrong, s) }

// code appends inline code.
func (m *markup) code(s string) *markup { return m.add(mCode, s) }

// block appends a code block (a paragraph of its own).
func (m *markup) block(s string) *markup { return m.add(mBlock, strings.TrimRight(s, "\n")) }

// para ends a paragraph.
func (m *markup) para() *markup { return m.add(mBreak, "") }

// markdown renders m as CommonMark.
func (m *markup) markdown() string {
	return m.render(func(p markupPart) string {
		switch p.kind {
		case mStrong:
			return "**" + escapeMarkdown(p.text) + "**"
		case mCode:
			fence := "`"
			for strings.Contains(p.text, fence) {
				fence += "`"
			}
			if strings.HasPrefix(p.text, "`") || strings.HasSuffix(p.text, "`") {
				return fence + " " + p.text + " " + fence
			}
			return fence + p.text + fence
		case mBlock:
			fence := "```"
			for strings.Contains(p.text, fence) {
				fence += "`"
			}
			return fence + "text\n" + p.text + "\n" + fence
		}
		return escapeMarkdown(p.text)
	})
}

// plaintext renders m without any markup: code blocks are indented by
// four spaces, inline code and emphasis are the bare text.
func (m *markup) plaintext() string {
	return m.render(func(p markupPart) string {
		if p.kind == mBlock {
			return "    " + strings.ReplaceAll(p.text, "\n", "\n    ")
		}
		return p.text
	})
}

// render joins the paragraphs of m (code blocks are paragraphs of their
// own) with blank lines, each part formatted by f.
func (m *markup) render(f func(markupPart) string) string {
	var paras []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			paras = append(paras, cur.String())
			cur.Reset()
		}
	}
	for _, p := range m.parts {
		switch p.kind {
		case mBreak:
			flush()
		case mBlock:
			flush()
			paras = append(paras, f(p))
		default:
			cur.WriteString(f(p))
		}
	}
	flush()
	return strings.Join(paras, "\n\n") + "\n"
}

// markdownEscaper escapes the characters that are syntax in Markdown prose.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "#", `\#`, "|", `\|`,
)

// escapeMarkdown makes prose show literally in Markdown.
func escapeMarkdown(s string) string { return markdownEscaper.Replace(s) }
