// Package bad holds directives that the directive analyzer reports.
package bad

import "github.com/jitlint/jitlint/jit"

// F converts a traced value once, suppressed by a directive without a reason.
func F(x jit.Array) jit.Array {
	if x.Gt(0).Bool() { //jitlint:ignore tracedbool // want `//jitlint:ignore tracedbool has no reason: say why`
		return x
	}
	return x.Neg()
}

var f = jit.Jit(F)

// G has directives that are wrong in other ways.
func G(x jit.Array) jit.Array {
	y := x.Add(1) //jitlint:ignore tracedbool nothing to suppress here // want `//jitlint:ignore tracedbool suppresses nothing: tracedbool reports no finding on line 18`
	//jitlint:ignore tracedbol typo in the name // want `names the unknown analyzer "tracedbol" \(known: tracedbool, unrolledloop, staticargs, shapechurn, traceeffect, directive\)`
	y = y.Neg()
	//jitlint:ignore // want `//jitlint:ignore names no analyzer`
	y = y.Mul(2)
	//jitlint:ignored tracedbool reason // want `unknown directive //jitlint:ignored`
	return y
}

var g = jit.Jit(G)

//jitlint:file-ignore traceeffect,tracedbool only tracedbool matches // want `//jitlint:file-ignore traceeffect suppresses nothing: traceeffect reports no finding in this file`

// H makes the file-wide directive's tracedbool useful.
func H(x jit.Array) float64 { return x.Item() }

var h = jit.Jit(H)

// L has a directive for the directive analyzer with nothing to hide.
func L(x jit.Array) jit.Array {
	return x //jitlint:ignore directive nothing to hide here // want `//jitlint:ignore directive suppresses nothing: directive reports no finding on line 38`
}

var l = jit.Jit(L)
