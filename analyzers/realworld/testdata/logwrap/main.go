// Command logwrap logs through its own small wrappers: a printf helper and
// a logger struct with a level, called from a jitted layer (they run once,
// while tracing); a progress helper called only between jitted calls; and
// a value logger built on jit.DebugPrint, which runs on every call.
package main

import (
	"fmt"
	"io"
	"log"
	"os"

	"github.com/jitlint/jitlint/jit"
)

// debugf is the program's printf.
func debugf(format string, args ...any) {
	log.Printf(format, args...) // want traceeffect
}

// logger writes lines at or above its level and counts them.
type logger struct {
	w     io.Writer
	level int
	lines int
}

func (l *logger) logf(level int, format string, args ...any) {
	if level < l.level {
		return
	}
	l.lines++                         // want traceeffect
	fmt.Fprintf(l.w, format, args...) // want traceeffect
}

// progress reports training progress.
func progress(step int, loss float64) {
	fmt.Printf("step %d loss %.4f\n", step, loss)
}

// values prints array values from inside compiled code.
func values(name string, x jit.Array) {
	jit.DebugPrint(name+" = %v", x)
}

var lg = &logger{w: os.Stderr, level: 1}

func layer(x, w jit.Array) jit.Array {
	debugf("layer: x %v w %v", x.Shape(), w.Shape())
	h := x.MatMul(w).Tanh()
	lg.logf(2, "layer output %v\n", h.Shape())
	lg.logf(0, "verbose: %v\n", h)
	values("h", h)
	return h
}

func main() {
	f := jit.Jit(layer)
	x, w := jit.Full(0.5, jit.Float32, 2, 3), jit.Full(0.1, jit.Float32, 3, 3)
	for step := range 4 {
		x = f.Call(x, w)
		progress(step, x.Sum().Item())
	}
	lg.logf(1, "done: %d lines logged\n", lg.lines)
}
