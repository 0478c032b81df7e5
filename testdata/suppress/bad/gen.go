package bad

//jitlint:file-ignore directive this file is generated: its directives are not ours to fix

import "github.com/jitlint/jitlint/jit"

// K has a directive without a reason, which the file-wide directive hides.
func K(x jit.Array) float64 {
	return x.Item() //jitlint:ignore tracedbool
}

var k = jit.Jit(K)
