// Package traceeffect defines an Analyzer that reports host side effects in
// traced code, which run only while tracing.
//
// # Analyzer traceeffect
//
// traceeffect: report host side effects in traced code that run only while tracing
//
// A traced function runs once per trace (once per new input signature), with
// abstract values; later calls run the compiled program and skip the Go code.
// So fmt.Print*, log.* and log/slog output, print and println, writes to
// package variables or to variables captured from outside the traced
// function or to the state of a receiver that outlives the trace
// (jit.Jit(m.Step) with m.steps++), sync/atomic updates of shared counters,
// time.Now, time.Since and math/rand draws happen once, at trace time, and
// never again: a print shows tracers instead of values, a counter counts
// compiles, a random number is frozen into the program. Making a generator
// (rand.New, rand.NewSource) is not a draw; drawing from it is, except
// from a generator that the traced function makes itself from constant
// seeds (rand.New(rand.NewSource(7))): that gives the same numbers on every
// call, traced or not, so nothing changes when they are frozen. Effects in
// the body of a sync.Once that main fires eagerly before its first jitted
// call are not reported either: that body never runs in a trace; nor are
// those of a function that traced code only calls with an argument
// converted to the host, where the trace fails first.
//
// Use jit.DebugPrint to print values at run time; return values from the
// traced function instead of writing them to outer variables; pass random
// or time-dependent values as arguments. fmt.Printf with traced arguments
// gets a suggested fix to jit.DebugPrint. Calls of exported functions of
// other packages that have such effects are reported at the call, through
// facts.
package traceeffect
