// Package unrolledloop defines an Analyzer that reports Go loops in traced
// code that are unrolled into the trace many times.
//
// # Analyzer unrolledloop
//
// unrolledloop: report Go loops in traced code whose trip count is large or not known
//
// A Go for or range loop in a traced function runs while tracing, so every
// iteration adds its jit operations to the traced program: the loop is
// unrolled. A handful of iterations is fine; hundreds make tracing and
// compiling slow, and a count that comes from a shape or from an argument
// makes a new, bigger program for each value.
//
// The analyzer reports a loop whose body stages jit operations (itself or
// through the functions it calls, in this package or another) when its
// trip count is a constant above -unrolledloop.max (default 32); when its
// bound comes from a shape (x.Shape()[0], x.Size(), or a variable set from
// one); when it ranges over a slice argument that a call of the jitted
// function builds from data or with more elements than the limit; when its
// bound is a non-static argument of the jitted function; or when its bound
// is a static argument (jit.StaticArgnums) that some call of the jitted
// function in the analysed code sets to a constant above the limit, or to
// a value not known there. Bounds and slices that traced code passes to a
// helper are followed to those calls (or to the constant passed); lengths
// and bounds are also followed through helpers' results, configuration
// literals and static struct fields, fixed tables, closure factories and
// slices held in struct fields, and count-down loops and counters with an
// offset (i+k <= n) count like the plain forms. A call
// that passes the counter of a loop with constant bounds (for i := 0;
// i < 3; i++ { f.Call(i, x) }) passes at most its last value; that the value
// changes on every call is the staticargs analyzer's finding, not this one's.
//
// Messages give the trip count and about how many equations the unrolled
// loop adds. Not reported: ranging over a pytree that the calls build with
// a few elements (a slice of layers), Ndim bounds, loops whose body stages
// no jit operation. Rewrite large loops with jit.ScanN or jit.ForiLoop,
// which trace the body once.
package unrolledloop
