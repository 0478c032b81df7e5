package lsp

import (
	"fmt"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// mapper converts between byte offsets in a file's content and LSP
// positions, whose character counts UTF-16 code units.
type mapper struct {
	content    []byte
	lineStarts []int
}

func newMapper(content []byte) *mapper {
	starts := []int{0}
	for i, b := range content {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &mapper{content: content, lineStarts: starts}
}

// offset returns the byte offset of pos. A character past the end of its
// line clamps to the line end (LSP allows this); a line past the end of the
// file is an error.
func (m *mapper) offset(pos protocol.Position) (int, error) {
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

// line returns the 0-based line of a byte offset clamped to the file, and
// the clamped offset.
func (m *mapper) line(off int) (int, int) {
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

// lineStart returns the offset of the start of the line holding off.
func (m *mapper) lineStart(off int) int {
	line, _ := m.line(off)
	return m.lineStarts[line]
}

// position returns the LSP position of a byte offset (clamped to the file).
func (m *mapper) position(off int) protocol.Position {
	lo, off := m.line(off)
	var units uint32
	for _, r := range string(m.content[m.lineStarts[lo]:off]) {
		units++
		if r >= 0x10000 {
			units++
		}
	}
	return protocol.Position{Line: uint32(lo), Character: units}
}

// rangeOf returns the LSP range of the byte span [start, end).
func (m *mapper) rangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: m.position(start), End: m.position(end)}
}
