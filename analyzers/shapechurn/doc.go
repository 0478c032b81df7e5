// Package shapechurn defines an Analyzer that reports calls of jitted
// functions in loops with arrays whose shape changes on every iteration.
//
// # Analyzer shapechurn
//
// shapechurn: report jitted calls in loops whose array arguments change shape on every iteration
//
// A jitted function is traced and compiled once per input signature: the
// shapes and dtypes of its array arguments. Calling it in a loop with an
// array whose shape depends on the loop (x.Slice by the index, Arange(i),
// Zeros or Reshape with a loop-dependent size, FromSlice of ragged batches,
// PadTo to a size read from the data, an array or a host slice that a helper
// of the package builds from what changes, or from state it advances, as a
// loader's Next does) compiles it again for every distinct shape. Wrappers
// that come from a cache (reg.get(name).Call(x)) are checked too. A window
// of fixed width at a moving offset, batches cut with min(off+size, n) (full
// batches and one short last one), PadTo to one of a few buckets, padding by
// hand to a bucket (Concatenate of n rows and b-n zeros) and sizes that take
// a few values over the loop are a bounded number of compiles and are not
// reported.
//
// Pad the argument to a fixed size with jit.PadTo and pass the mask as a
// second argument, so that one compiled program serves every iteration.
package shapechurn
