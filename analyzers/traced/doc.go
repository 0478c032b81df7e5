// Package traced is the dataflow shared by the jitlint analyzers. It answers
// two questions about one package: is this function traced, and is this value
// traced?
//
// Traced functions are the functions and literals passed to jit.Jit,
// jit.MakeJaxpr, jit.Cond, jit.Switch, jit.Scan, jit.ScanN, jit.ForiLoop and
// jit.WhileLoop, the functions whose doc comment has a //jit:traced line, and
// the functions of the package called from traced code with traced
// arguments. Traced values are the non-static parameters of type jit.Array
// (or pytrees holding arrays) of traced functions, and every value computed
// from them by jit operations. Shape, Dtype, Ndim, Size, WeakType and String
// give static values, and so does len of a pytree.
//
// The analysis works on syntax and types only (no SSA): it is flow-insensitive
// (a variable is traced if any assignment makes it traced) and it does not
// need facts, so it costs one walk over the files of packages that import
// the jit package and nothing for the others. Calls into other packages are
// handled by the analyzers' own facts (see Summary).
package traced
