package jit

import (
	"github.com/jitlint/jitlint/jit/ir"
)

// DebugPrint prints at run time: inside traced code it stages a debug_print
// equation that prints every time the compiled program runs, with the
// values; outside traced code it prints at once. format is a Go fmt format;
// args are Arrays (printed numpy-style) or Go numbers. Output goes to
// standard output, or where eval.SetPrintOutput says.
func DebugPrint(format string, args ...any) {
	arrs := make([]Array, len(args))
	for i, a := range args {
		arrs[i] = asArray(a)
	}
	// Outside traced code, bind evaluates the equation at once, with the
	// evaluator that prints for the staged one.
	bind(ir.DebugPrint, ir.Params{"fmt": format, "ordered": false}, nil, arrs...)
}
