// Package richtext is rich text built once and rendered as Markdown or as
// plaintext, for clients that show either: callers write with its methods
// and never put Markdown syntax in their strings.
package richtext

import (
	"strings"
)

// Text is rich text: prose, emphasis, inline code, code blocks and
// paragraph breaks, appended in order. The zero value is empty text.
type Text struct {
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

func (m *Text) add(k markupKind, s string) *Text {
	m.parts = append(m.parts, markupPart{k, s})
	return m
}

// Prose appends prose.
func (m *Text) Prose(s string) *Text { return m.add(mText, s) }

// Strong appends emphasised prose.
func (m *Text) Strong(s string) *Text { return m.add(mStrong, s) }

// Code appends inline Code.
func (m *Text) Code(s string) *Text { return m.add(mCode, s) }

// Block appends a code Block (a paragraph of its own).
func (m *Text) Block(s string) *Text { return m.add(mBlock, strings.TrimRight(s, "\n")) }

// Para ends a paragraph.
func (m *Text) Para() *Text { return m.add(mBreak, "") }

// Markdown renders m as CommonMark.
func (m *Text) Markdown() string {
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

// Plaintext renders m without any markup: code blocks are indented by
// four spaces, inline code and emphasis are the bare text.
func (m *Text) Plaintext() string {
	return m.render(func(p markupPart) string {
		if p.kind == mBlock {
			return "    " + strings.ReplaceAll(p.text, "\n", "\n    ")
		}
		return p.text
	})
}

// render joins the paragraphs of m (code blocks are paragraphs of their
// own) with blank lines, each part formatted by f.
func (m *Text) render(f func(markupPart) string) string {
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
