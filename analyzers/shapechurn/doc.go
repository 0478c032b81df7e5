// Package shapechurn defines an Analyzer that reports calls of jitted
// functions in loops with arrays whose shape changes on every iteration.
//
// # Analyzer shapechurn
//
// shapechurn: report jitted calls in loops whose array arguments change shape on every iteration
//
// A jitted function is traced and compiled once per input signature: the
// shapes and dtypes of its array arguments. The shapes of the arguments are
// values like any other: the analysis follows the dims that each operation
// gives its result, through helpers, the loop's own state (an array the
// loop carries keeps or changes its shape), the elements of slices that
// helpers build by appending, and state that helpers advance (a loader's
// position, a cursor). It counts the distinct shapes over the iterations of
// the loops around the call, and of the loops around the calls that run
// it. A call is reported when at least every other call compiles: a shape
// that takes a new value on every iteration (a prefix that grows, ragged
// batches read from data, sizes drawn at random), or enough distinct ones
// (three shapes over five iterations). A few shapes that repeat (buckets,
// full batches and one short last one, a warm-up window capped by min or
// max) are a few compiles and are not reported.
//
// Pad the argument to a fixed size with jit.PadTo and pass the mask as a
// second argument, so that one compiled program serves every iteration.
package shapechurn
