package textdoc

import (
	"fmt"
	"slices"

	"go.lsp.dev/protocol"
)

// Change is TextDocumentContentChangeEvent with a pointer Range, so
// that a full replacement (no range) can be told from an edit at 0:0.
type Change struct {
	Range *protocol.Range `json:"range"`
	Text  string          `json:"text"`
}

// Apply returns text after changes, applied in order: each range is in
// the text the changes before it left. m is text's mapper (a document
// keeps one); text is not modified.
func Apply(text []byte, m *Mapper, changes []Change) ([]byte, error) {
	for i, c := range changes {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		if i > 0 { // an earlier change in this batch changed text
			m = NewMapper(text)
		}
		start, err := m.Offset(c.Range.Start)
		if err == nil {
			var end int
			end, err = m.Offset(c.Range.End)
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
