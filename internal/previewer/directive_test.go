package previewer

import (
	"strings"
	"testing"
)

func TestParseArgsDirective(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{" f32[1000000]", "f32[1000000]"},
		{" 3, f32[4]", "3, f32[4]"},
		{"  f32[4, 4] ,bf16[]", "f32[4,4], bf16[]"},
		{" 1_000_000, -2.5e-3, true, \"name\"", "1_000_000, -2.5e-3, true, \"name\""},
		{" {W: f32[4,4], B: f32[4]}", "{W: f32[4,4], B: f32[4]}"},
		{" {f32[2], {\"k\": i32[3]}}, 0x10", "{f32[2], {\"k\": i32[3]}}, 0x10"},
		{"", ""},
	} {
		args, err := ParseArgs(tc.in)
		if err != nil {
			t.Errorf("parse %q: %v", tc.in, err)
			continue
		}
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = a.String()
		}
		if got := strings.Join(parts, ", "); got != tc.want {
			t.Errorf("parse %q = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseArgsDirectiveErrors(t *testing.T) {
	for _, tc := range []struct {
		in, msg string
		col     int
	}{
		{" f33[4]", `unknown dtype "f33"`, 1},
		{" f32[4,", "expected a non-negative dimension", 7},
		{" f32", "expected '[' after dtype f32", 4},
		{" f32[4] f32[4]", "expected ',' between arguments", 8},
		{" {W: f32[4]", "expected ',' or '}' in a pytree", 11},
		{" 3,", "missing argument at the end", 3},
		{` "abc`, "unterminated string", 1},
		{" 1.2.3", `"1.2.3" is not a Go number`, 1},
		{" f32[-1]", "expected a non-negative dimension", 5},
	} {
		_, err := ParseArgs(tc.in)
		de, ok := err.(*SyntaxError)
		if !ok {
			t.Errorf("parse %q: got %v, want a SyntaxError", tc.in, err)
			continue
		}
		if !strings.Contains(de.Msg, tc.msg) || de.Col != tc.col {
			t.Errorf("parse %q: error %q at %d, want %q at %d", tc.in, de.Msg, de.Col, tc.msg, tc.col)
		}
	}
}
