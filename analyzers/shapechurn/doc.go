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
// PadTo to a size read from the data) compiles it again for every distinct
// shape. A window of fixed width at a moving offset, batches cut with
// min(off+size, n) (full batches and one short last one) and PadTo to one of
// a few buckets are a bounded number of compiles and are not reported.
//
// Pad the argument to a fixed size with jit.PadTo and pass the mask as a
// second argument, so that one compiled program serves every iteration.
package shapechurn
