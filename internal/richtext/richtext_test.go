package richtext

import "testing"

// TestRender: one text renders as CommonMark (prose escaped, code in
// backticks, blocks fenced) and as plaintext without any Markdown syntax
// (blocks indented).
func TestRender(t *testing.T) {
	m := new(Text).Strong("F").Prose(" takes *x*_1 ").Code("f32[8]").Para().Block("{ lambda ; a:f32[8]. let\n  in (a,) }\n")
	if got, want := m.Markdown(), "**F** takes \\*x\\*\\_1 `f32[8]`\n\n```text\n{ lambda ; a:f32[8]. let\n  in (a,) }\n```\n"; got != want {
		t.Errorf("Markdown =\n%q\nwant\n%q", got, want)
	}
	if got, want := m.Plaintext(), "F takes *x*_1 f32[8]\n\n    { lambda ; a:f32[8]. let\n      in (a,) }\n"; got != want {
		t.Errorf("Plaintext =\n%q\nwant\n%q", got, want)
	}
}
