package a

//jitlint:file-ignore traceeffect this file logs at trace time on purpose

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Logged prints at trace time; the file-wide directive suppresses it.
func Logged(x jit.Array) jit.Array {
	fmt.Println("tracing", x.Shape())
	return x.Add(1)
}

var logged = jit.Jit(Logged)
