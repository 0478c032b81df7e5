package textdoc

import (
	"testing"

	"go.lsp.dev/protocol"
)

func TestMapperUTF16(t *testing.T) {
	text := "ab\nπ𝄞x\n\nlast"
	m := NewMapper([]byte(text))
	for _, tc := range []struct {
		pos protocol.Position
		off int
	}{
		{protocol.Position{Line: 0, Character: 0}, 0},
		{protocol.Position{Line: 0, Character: 2}, 2},
		{protocol.Position{Line: 0, Character: 99}, 2}, // clamps to the line end
		{protocol.Position{Line: 1, Character: 1}, 5},  // after π (2 bytes, 1 unit)
		{protocol.Position{Line: 1, Character: 3}, 9},  // after 𝄞 (4 bytes, 2 units)
		{protocol.Position{Line: 1, Character: 4}, 10}, // after x
		{protocol.Position{Line: 2, Character: 0}, 11},
		{protocol.Position{Line: 3, Character: 4}, 16},
	} {
		off, err := m.Offset(tc.pos)
		if err != nil || off != tc.off {
			t.Errorf("offset(%v) = %d, %v; want %d", tc.pos, off, err, tc.off)
		}
		if tc.pos.Character != 99 {
			if back := m.Position(tc.off); back != tc.pos {
				t.Errorf("position(%d) = %v, want %v", tc.off, back, tc.pos)
			}
		}
	}
	if _, err := m.Offset(protocol.Position{Line: 7}); err == nil {
		t.Errorf("a line past the end should be an error")
	}
}
