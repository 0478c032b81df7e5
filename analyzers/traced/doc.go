// Package traced is the dataflow shared by the jitlint analyzers. It answers
// two questions about one package: is this function traced, and is this value
// traced?
//
// Traced functions are the functions and literals passed to jit.Jit,
// jit.MakeJaxpr, jit.Cond, jit.Switch, jit.Scan, jit.ScanN, jit.ForiLoop and
// jit.WhileLoop, the functions whose doc comment has a //jit:traced line, and
// the functions of the package that traced code calls. Function values are
// followed: literals and functions stored in variables, struct fields, maps
// and slices (jit.Jit(table[k])), closures returned by a constructor
// (jit.Jit(makeStep(&buf))), method values, and the methods of the
// package's types that a call through an interface can reach.
//
// Traced values are the non-static parameters of type jit.Array (or
// pytrees holding arrays) of traced functions, and, because the runtime
// stages every operation inside a trace (omnistaging), the result of every
// jit operation in traced code, also on concrete, captured or global arrays.
// Only jit.Scalar, jit.FromSlice, and jit.Full, jit.Zeros and jit.Ones
// without a shape build concrete arrays there. Shape, Dtype, Ndim, Size,
// WeakType, String and IsTracer give static values, and so does len of a
// pytree. Code that a test of IsTracer on a traced value keeps out of the
// trace (if !x.IsTracer() { ... }) is skipped (Result.Dead).
//
// The analysis works on syntax and types only (no SSA): it is
// flow-insensitive (a variable is traced if any assignment makes it
// traced), so it costs a few walks over the files of packages that import
// the jit package and nothing for the others. It exports a StagesFact for
// each function that stages operations, so that a loop calling a helper of
// another package is seen to stage them (Result.Ops); what other packages'
// functions convert or do is in the analyzers' own facts (see Summary).
//
// The language server reads the same Result: Funcs (the traced functions,
// with Origin and Why, and the entry-point calls that take them), Jitted
// (the jit.Jit calls with their static argument indexes and call sites)
// and IsTraced (which expressions and identifiers hold traced values).
package traced
