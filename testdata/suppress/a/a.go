package a

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Trailing is suppressed by a directive at the end of the reported line.
func Trailing(x jit.Array) jit.Array {
	if x.Sum().Gt(0).Bool() { //jitlint:ignore tracedbool tested on purpose
		return x
	}
	return x.Neg()
}

var trailing = jit.Jit(Trailing)

// Above is suppressed by a directive alone on the line above, for two
// analyzers at once (the print runs, then the conversion fails the trace).
func Above(x jit.Array) jit.Array {
	//jitlint:ignore tracedbool,traceeffect the print shows the trace once, on purpose
	if fmt.Println("tracing"); x.Item() > 0 {
		return x
	}
	return x
}

var above = jit.Jit(Above)

// NotSuppressed: the directive above names another analyzer, and the one
// two lines up does not reach this line.
func NotSuppressed(x jit.Array) jit.Array {
	//jitlint:ignore tracedbool reaches only the next line
	_ = x
	if x.Gt(0).Bool() { // want `x.Gt\(0\).Bool\(\) converts a traced value to a Go bool`
		return x
	}
	return x.Neg()
}

var notSuppressed = jit.Jit(NotSuppressed)

// WrongAnalyzer has a directive for the wrong analyzer.
func WrongAnalyzer(x jit.Array) jit.Array {
	if x.Gt(0).Bool() { //jitlint:ignore traceeffect wrong analyzer // want `x.Gt\(0\).Bool\(\) converts`
		return x
	}
	return x.Neg()
}

var wrongAnalyzer = jit.Jit(WrongAnalyzer)
