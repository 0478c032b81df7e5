package previewer

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParseArgsDirective checks that the //jit:args parser never panics,
// reports errors at a column inside the text, and that what it accepts
// prints back to text it parses to the same arguments.
func FuzzParseArgsDirective(f *testing.F) {
	for _, seed := range []string{
		"", " f32[8]", " f32[4,4], 3", ` {W: f32[4,4], B: f32[4]}`, ` {"w": f32[2]}, -1.5e3, true, "s"`,
		" f32[4,", " bf16[]", " {f32[1], {i32[2], bool[3]}}", " 0x10", " f32[-1]", " f32[99999999999999999999]", " {a: }",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		args, err := ParseArgs(text)
		if err != nil {
			de, ok := err.(*SyntaxError)
			if !ok {
				t.Fatalf("ParseArgs(%q) returned %T, want *SyntaxError", text, err)
			}
			if de.Col < 0 || de.Col > len(text) {
				t.Fatalf("ParseArgs(%q): error column %d outside the text", text, de.Col)
			}
			return
		}
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = a.String()
		}
		printed := " " + strings.Join(parts, ", ")
		again, err := ParseArgs(printed)
		if err != nil {
			t.Fatalf("ParseArgs(%q) = %q, which does not parse: %v", text, printed, err)
		}
		if !reflect.DeepEqual(stripCols(again), stripCols(args)) {
			t.Fatalf("round trip of %q through %q changed the arguments", text, printed)
		}
	})
}

// stripCols returns args without their source columns.
func stripCols(args []Arg) []Arg {
	out := make([]Arg, len(args))
	for i, a := range args {
		a.Col = 0
		a.Elems = stripCols(a.Elems)
		out[i] = a
	}
	return out
}
