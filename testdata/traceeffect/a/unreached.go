package a

import "github.com/jitlint/jitlint/jit"

// earlyStop keeps the best loss; traced code only ever calls it with a
// loss converted to the host, so the trace fails at the conversion
// (tracedbool's finding) before improved runs: its writes are not reported.
type earlyStop struct{ best float64 }

var stopper = &earlyStop{best: 1e9}

func (e *earlyStop) improved(l float64) bool {
	if l < e.best {
		e.best = l
		return true
	}
	return false
}

// Unreached stops on a traced loss read on the host.
func Unreached(x jit.Array) jit.Array {
	if stopper.improved(x.Sum().Item()) {
		return x
	}
	return x.Mul(0.5)
}

var unreached = jit.Jit(Unreached)

// stepCounter is called from traced code with a Go value: its write happens
// once per trace.
type stepCounter struct{ n float64 }

var stepCount = &stepCounter{}

func (c *stepCounter) add(v float64) { c.n += v } // want `assignment to c.n`

// Counted counts its stepCount while tracing.
func Counted(x jit.Array) jit.Array {
	stepCount.add(1)
	return x.Sin()
}

var counted = jit.Jit(Counted)
