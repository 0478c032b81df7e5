package a

import "github.com/jitlint/jitlint/jit"

// A loop whose every iteration converts a traced value to the host fails
// the trace in its first iteration: its body runs once, nothing unrolls
// (the conversion is tracedbool's finding). A conversion on one branch
// only leaves the other path to go round.

var ffEarlyStop = jit.Jit(func(v jit.Array) jit.Array {
	for sweep := 0; sweep < 1000; sweep++ { // not reported: the trace fails in the first sweep
		nv := v.Mul(0.9)
		delta := nv.Sub(v).Abs().MaxReduce()
		v = nv
		if delta.Item() < 1e-6 {
			break
		}
	}
	return v
})

var ffSometimes = jit.Jit(func(v jit.Array, check bool) jit.Array {
	for sweep := 0; sweep < 1000; sweep++ { // want `loop is unrolled into the trace 1000 times`
		v = v.Mul(0.9)
		if check && v.Sum().Item() < 0 {
			break
		}
	}
	return v
}, jit.StaticArgnums(1))

func ffRun(x jit.Array) {
	ffEarlyStop.Call(x)
	ffSometimes.Call(x, false)
}
