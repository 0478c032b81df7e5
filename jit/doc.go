// Package jit is a tracing JIT in the style of JAX's jax.jit.
//
// A Go function over Arrays is traced with abstract values (shape + dtype),
// recorded as a jaxpr (package ir), lowered and compiled by a backend (CPU by
// default; GPU when the program imports jit/gpu and a CUDA device works),
// and the executable is cached per input signature: pytree structure,
// shapes, dtypes, weak types, static argument values and backend. As in
// JAX, the cache belongs to the function: every Jit of the same top-level
// function or method expression with equal options shares it, so
// jit.Jit(Step).Call(x) in a loop compiles once; a function literal or a
// method value (bound to its receiver) is a new function with its own cache.
// Stats count each wrapper's own traces, compiles and hits.
//
//	heavy := jit.Jit(Heavy)
//	y := heavy.Call(jit.Arange(1_000_000, jit.Float32)).BlockUntilReady()
//
// Host control flow on traced values is an error at trace time (as in JAX);
// use Where, Cond, Switch, Scan, ScanN, ForiLoop and WhileLoop, which are
// recorded as real primitives and never unrolled. The AOT API (Trace, Lower,
// Compile) exposes each phase; MakeJaxpr prints a function's jaxpr exactly
// as JAX prints it.
//
// Vmap (jax.vmap) and Grad / ValueAndGrad (jax.grad, reverse mode)
// transform Go functions into Go functions that compose with each other and
// with Jit; see docs/transformations.md for their options and the traps
// they set (a batched Cond runs every branch; a Where over a singular
// branch has a NaN gradient unless written as a double where).
//
// Every staged equation records the call in your code that staged it
// (ir.Eqn.Source: the first frame outside jit); ClosedJaxpr.PrettyPrint with
// ir.PrintOptions{SourceInfo: true} appends it to each equation as
// "# file.go:line", like JAX's pretty_print(source_info=True).
//
// With the environment variable JITLINT_EVENTS naming a file (or
// SetEventsFile), every compile and every failed trace appends one JSON line
// (an events.Event of package jit/events, which defines the file's format):
// the function, where it is defined, the call site that compiled it and how
// many calls were made there so far, the signature, the trace, lower and
// compile times, for a recompile ("cache_miss") the cause as the cache-miss
// explanation gives it, for a failed trace ("trace_error") the error and the
// line where it happened, and a hash of each source file named. The
// language server jitls shows the last run's recompiles at their call sites
// from this file, and jitlint -events reports them.
package jit
