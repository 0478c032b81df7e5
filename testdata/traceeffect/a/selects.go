package a

import "github.com/jitlint/jitlint/jit"

// A select in traced code sends or receives as its cases do: on a channel
// that outlives the trace, once per trace.

var seEvents = make(chan float64, 16)

func seNotify(x jit.Array) jit.Array {
	select { // want `a select on a channel runs once per trace, not on every call`
	case seEvents <- 1:
	default:
	}
	return x.Mul(2)
}

func seLocal(x jit.Array) jit.Array {
	done := make(chan struct{}, 1)
	select { // not reported: a channel the trace makes and drops
	case done <- struct{}{}:
	default:
	}
	return x.Add(1)
}

var (
	seNotifyJit = jit.Jit(seNotify)
	seLocalJit  = jit.Jit(seLocal)
)
