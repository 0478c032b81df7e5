package cross

import (
	"fixtures/traceeffect/optlib"

	"github.com/jitlint/jitlint/jit"
)

// Methods of another package that write their receiver: called in traced
// code on a receiver that outlives the trace, the write happens once per
// trace, not once per call.

var r45Opt = optlib.NewAdam(0.1)

// R45Train steps the package's optimizer.
func R45Train(p, g jit.Array) jit.Array {
	return r45Opt.Step(p, g) // want `r45Opt.Step writes r45Opt.Steps, and the receiver is the package variable r45Opt, which outlives the trace: the write runs once per trace, not on every call`
}

var r45Train = jit.Jit(R45Train)

func r45Loop(p, g jit.Array) {
	opt := optlib.NewAdam(0.1)
	step := jit.Jit(func(p, g jit.Array) jit.Array {
		opt.Tune(0.05)        // want `opt.Tune writes opt.LR, and the receiver is the captured variable opt, which outlives the trace`
		return opt.Step(p, g) // want `opt.Step writes opt.Steps, and the receiver is the captured variable opt`
	})
	// Not reported: methods that write nothing the caller keeps.
	apply := jit.Jit(func(p, g jit.Array) jit.Array {
		p = opt.Apply(p, g)
		p = opt.Decayed(p, g)
		return opt.Fresh(p, g)
	})
	// Not reported: an optimizer made inside the traced function, on
	// every trace.
	local := jit.Jit(func(p, g jit.Array) jit.Array {
		own := optlib.NewAdam(0.1)
		own.Tune(0.05)
		return own.Step(p, g)
	})
	for range 10 {
		p = r45Train.Call(p, g)
		p = step.Call(p, g)
		p = apply.Call(p, g)
		p = local.Call(p, g)
	}
}
