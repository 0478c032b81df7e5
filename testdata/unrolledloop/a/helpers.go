package a

import "github.com/jitlint/jitlint/jit"

// Slices built by helpers of the package: their lengths come from what the
// helper is given.

func timeSteps(n int) []jit.Array {
	xs := make([]jit.Array, n)
	for t := range n {
		xs[t] = jit.Full(float64(t), jit.Float32, 4)
	}
	return xs
}

func appendSteps(n int) []jit.Array {
	var xs []jit.Array
	for i := 0; i < n; i++ {
		xs = append(xs, jit.Zeros(jit.Float32, 4))
	}
	return xs
}

// RunSteps ranges over the time steps it is given.
func RunSteps(xs []jit.Array) jit.Array {
	h := jit.Zeros(jit.Float32, 4)
	for _, x := range xs { // want `unrolled into the trace 48 times \(once per element of xs; the call at helpers.go:\d+ passes 48\)`
		h = h.Add(x).Tanh()
	}
	return h
}

var runTimeSteps = jit.Jit(RunSteps)

func callRunSteps() {
	runTimeSteps.Call(timeSteps(48))
}

// RunAppended ranges over a slice that a helper appends 40 elements to.
func RunAppended(xs []jit.Array) jit.Array {
	h := jit.Zeros(jit.Float32, 4)
	for _, x := range xs { // want `unrolled into the trace 40 times`
		h = h.Mul(x)
	}
	return h
}

var runAppended = jit.Jit(RunAppended)

func callRunAppended() {
	seq := appendSteps(40)
	runAppended.Call(seq)
}

// RunShort is given a few steps from the same helper: structure, not reported.
func RunShort(xs []jit.Array) jit.Array {
	h := jit.Zeros(jit.Float32, 4)
	for _, x := range xs {
		h = h.Add(x)
	}
	return h
}

var runShort = jit.Jit(RunShort)

func callRunShort() {
	runShort.Call(timeSteps(3))
}

// A slice captured by a jitted closure, built from a constant length.
func captured() {
	coeffs := make([]float64, 50)
	f := jit.Jit(func(x jit.Array) jit.Array {
		acc := jit.Zeros(jit.Float32, 4)
		for _, c := range coeffs { // want `unrolled into the trace 50 times \(once per element of coeffs, which has 50\)`
			acc = acc.Mul(x).Add(c)
		}
		return acc
	})
	_ = f
	few := []float64{1, 2, 3}
	g := jit.Jit(func(x jit.Array) jit.Array {
		for _, c := range few { // three elements: not reported
			x = x.Add(c)
		}
		return x
	})
	_ = g
}

// sumTail is generic over slice types and skips the first element.
func sumTail[S ~[]jit.Array](xs S) jit.Array {
	acc := xs[0]
	for _, x := range xs[1:] { // want `unrolled into the trace 39 times \(once per element of xs; the call at helpers.go:\d+ passes 40\)`
		acc = acc.Add(x)
	}
	return acc
}

type seq []jit.Array

// Total sums a seq through the generic helper.
func Total(s seq) jit.Array { return sumTail(s) }

var total = jit.Jit(Total)

func callTotal() {
	total.Call(seq(appendSteps(40)))
}

// Shrink ranges over a slice it redefines from itself: its length is not
// known, and working it out must terminate.
func Shrink(xs []jit.Array) jit.Array {
	tail := xs
	for len(tail) > 1 {
		tail = tail[1:]
	}
	acc := xs[0]
	for _, x := range tail {
		acc = acc.Add(x)
	}
	return acc
}

var shrink = jit.Jit(Shrink)

func callShrink() {
	shrink.Call(appendSteps(3))
}
