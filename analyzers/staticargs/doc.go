// Package staticargs defines an Analyzer that reports calls of jitted
// functions that trace and compile again on every call.
//
// # Analyzer staticargs
//
// staticargs: report static arguments that change on every call, and jit.Jit calls inside loops
//
// A static argument (jit.StaticArgnums) is part of the cache key of a jitted
// function: each new value traces and compiles the function again. The
// analyzer reports calls of a jitted function whose static argument, or
// `jit:"static"` struct field, is a loop variable or a value updated in the
// loop (unless it only cycles through a few values: a bool, i%3, an element
// of a fixed table), or a time/rand result; static arguments of
// non-comparable type (slices, maps, functions: jit rejects them with
// BadStaticArg); arrays passed in a static position; and jit.Jit called
// inside a loop on the same function, which makes a new wrapper with an
// empty cache on every iteration (building a table of wrappers, or jitting
// a different function on each iteration, is fine), or jit.Jit of a named
// function, a method value or a function literal (that captures none of
// its variables) in a function that runs many times (called in a loop, or
// from several places) without keeping the wrapper in a cache (a map or
// slice element, or a package variable; a wrapper returned or stored in a
// field is made anew on every run): the cache belongs to the wrapper, so
// every run compiles again. A value
// updated with a compound assignment (damping *= 0.5) changes on every
// iteration. Options passed as jit.Jit(f, opts...) are read when the slice
// is built in the package.
//
// For jit.Jit in a loop, the suggested fix moves the statement before the
// loop when the jitted function does not use variables of the loop.
package staticargs
