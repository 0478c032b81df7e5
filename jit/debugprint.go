package jit

import (
	"fmt"
	"io"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// DebugPrint prints at run time: inside traced code it stages a debug_print
// equation that prints every time the compiled program runs, with the
// values; outside traced code it prints at once. format is a Go fmt format;
// args are Arrays (printed numpy-style) or Go numbers.
func DebugPrint(format string, args ...any) {
	arrs := make([]Array, len(args))
	for i, a := range args {
		arrs[i] = asArray(a)
	}
	if currentTrace() == nil {
		vals := make([]any, len(arrs))
		for i, a := range arrs {
			vals[i] = a
		}
		s := fmt.Sprintf(format, vals...)
		if len(s) == 0 || s[len(s)-1] != '\n' {
			s += "\n"
		}
		io.WriteString(eval.Stdout, s)
		return
	}
	bind(ir.DebugPrint, ir.Params{"fmt": format, "ordered": false}, nil, arrs...)
}
