package textdoc

import (
	"fmt"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Mapper converts between byte offsets in a file's content and LSP
// positions, whose character counts UTF-16 code units.
type Mapper struct {
	content    []byte
	lineStarts []int
}

// NewMapper returns the mapper of content.
func NewMapper(content []byte) *Mapper {
	starts := []int{0}
	for i, b := range content {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &Mapper{content: content, lineStarts: starts}
}

// Offset returns the byte Offset of pos. A character past the end of its
// line clamps to the line end (LSP allows this); a line past the end of the
// file is an error.
func (m *Mapper) Offset(pos protocol.Position) (int, error) {
	line := int(pos.Line)
	if line >= len(m.lineStarts) {
		if line == len(m.lineStarts) && pos.Character == 0 {
			return len(m.content), nil
		}
		return 0, fmt.Errorf("line %d is past the end of the document (%d lines)", line+1, len(m.lineStarts))
	}
	start := m.lineStarts[line]
	end := len(m.content)
	if line+1 < len(m.lineStarts) {
		end = m.lineStarts[line+1] - 1 // the '\n'
	}
	units := int(pos.Character)
	off := start
	for off < end && units > 0 {
		r, size := utf8.DecodeRune(m.content[off:end])
		n := 1
		if r >= 0x10000 {
			n = 2
		}
		if units < n {
			break
		}
		units -= n
		off += size
	}
	return off, nil
}

// Line returns the 0-based Line of a byte offset clamped to the file, and
// the clamped offset.
func (m *Mapper) Line(off int) (int, int) {
	off = max(0, min(off, len(m.content)))
	lo, hi := 0, len(m.lineStarts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if m.lineStarts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, off
}

// LineStart returns the offset of the start of the line holding off.
func (m *Mapper) LineStart(off int) int {
	line, _ := m.Line(off)
	return m.lineStarts[line]
}

// Position returns the LSP Position of a byte offset (clamped to the file).
func (m *Mapper) Position(off int) protocol.Position {
	lo, off := m.Line(off)
	var units uint32
	for _, r := range string(m.content[m.lineStarts[lo]:off]) {
		units++
		if r >= 0x10000 {
			units++
		}
	}
	return protocol.Position{Line: uint32(lo), Character: units}
}

// Range returns the LSP range of the byte span [start, end).
func (m *Mapper) Range(start, end int) protocol.Range {
	return protocol.Range{Start: m.Position(start), End: m.Position(end)}
}

// Content returns the content m maps.
func (m *Mapper) Content() []byte { return m.content }
