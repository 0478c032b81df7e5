// Package tracedbool defines an Analyzer that reports host conversions of
// traced values inside traced code.
//
// # Analyzer tracedbool
//
// tracedbool: report host conversions (Bool, Item, Int, Float32s, ...) of traced values in traced code
//
// Inside a function traced by jit.Jit (or jit.Cond, jit.Scan, ...), arrays
// derived from the non-static arguments are tracers: abstract values with a
// shape and a dtype but no data. Converting one to a Go value (x.Bool() in an
// if condition, x.Item(), x.Int() as an index, x.Float32s()) fails at trace
// time with TracerBoolConversionError or ConcretizationTypeError.
//
// For a branch on a traced condition use jit.Where(cond, x, y) (elementwise)
// or jit.Cond(pred, f, g, operand) (a real branch). For the two common
// shapes
//
//	if c.Bool() { return a }
//	return b
//
//	if c.Bool() { v = a } else { v = b }
//
// the analyzer suggests the rewrite to jit.Where(c, a, b). Calls of exported
// functions of other packages that convert a parameter are reported at the
// call, through facts.
package tracedbool
