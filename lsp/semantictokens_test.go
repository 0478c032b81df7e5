package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// decodeTokens turns LSP's relative token data into "name type modifiers"
// strings, one per token, in order.
func decodeTokens(t *testing.T, text string, data []uint32) []string {
	t.Helper()
	lines := strings.Split(text, "\n")
	var out []string
	line, col := uint32(0), uint32(0)
	for i := 0; i+5 <= len(data); i += 5 {
		if data[i] > 0 {
			col = 0
		}
		line += data[i]
		col += data[i+1]
		name := lines[line][col : col+data[i+2]]
		var mods []string
		for b, m := range semModifiers {
			if data[i+4]&(1<<b) != 0 {
				mods = append(mods, m)
			}
		}
		out = append(out, fmt.Sprintf("%d:%s %s %s", line+1, name, semTypes[data[i+3]], strings.Join(mods, ",")))
	}
	return out
}

func TestSemanticTokensTracedAndStatic(t *testing.T) {
	dir := sampleModule(t, map[string]string{"relu/chain.go": chainFile})
	c := startServer(t, Options{})
	c.initialize(map[string]any{}) // untrusted: tokens need no trust
	path := filepath.Join(dir, "relu", "chain.go")
	u, text := openFile(c, path)
	r := c.request("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": u}})
	var res struct{ Data []uint32 }
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
		t.Fatalf("semanticTokens/full: %+v %s", r.Error, r.Result)
	}
	got := decodeTokens(t, text, res.Data)
	// Every identifier of a traced value and every static one, and no other:
	// not i (a Go int), not k (computed from a static field), not jit.
	want := []string{
		"8:x parameter traced", "8:n parameter static",
		"9:y variable traced", "9:x parameter traced",
		"10:m variable traced", "10:x parameter traced",
		"11:n parameter static",
		"12:y variable traced", "12:y variable traced", "12:y variable traced",
		"14:s variable traced", "14:y variable traced",
		"15:z variable traced", "15:c parameter traced",
		"16:c parameter traced",
		"17:y variable traced",
		"18:m variable traced", "18:z variable traced", "18:s variable traced",
		"24:Scale property static",
		"28:cfg parameter traced",
		"29:cfg parameter traced", "29:Scale property static",
		"30:cfg parameter traced", "30:W property traced",
	}
	if !slices.Equal(got, want) {
		t.Errorf("tokens:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	// The range request returns the tokens of the range only.
	r = c.request("textDocument/semanticTokens/range", map[string]any{"textDocument": map[string]any{"uri": u},
		"range": protocol.Range{Start: protocol.Position{Line: 11}, End: protocol.Position{Line: 12}}})
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
		t.Fatalf("semanticTokens/range: %+v %s", r.Error, r.Result)
	}
	if got := decodeTokens(t, text, res.Data); !slices.Equal(got, want[7:10]) {
		t.Errorf("range tokens: %v, want %v", got, want[7:10])
	}
}
