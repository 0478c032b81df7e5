// Command slogtrace logs a training step with log/slog, as a Go service
// would: a structured logger with a text handler called inside the jitted
// step (it logs tracers, once per trace), a debug line through the default
// logger, a value printed with jit.DebugPrint (every call), and the
// per-step summary logged by the host loop.
package main

import (
	"log/slog"
	"os"

	"github.com/jitlint/jitlint/jit"
)

type model struct {
	log *slog.Logger
	W   jit.Array
}

// forward logs the batch it is given and applies the layer.
func (m *model) forward(w, x jit.Array) jit.Array {
	m.log.Info("forward", "batch", x.Shape()[0], "w", w) // want traceeffect
	slog.Debug("forward inputs", "x", x)                 // want traceeffect
	jit.DebugPrint("w norm %v\n", w.Mul(w).Sum())
	return x.MatMul(w).Tanh()
}

func loss(w, x, y jit.Array) jit.Array {
	d := x.MatMul(w).Tanh().Sub(y)
	return d.Mul(d).Mean()
}

func update(w, x, y jit.Array) jit.Array {
	g := x.Transpose(1, 0).MatMul(x.MatMul(w).Tanh().Sub(y))
	return w.Sub(g.Mul(0.1))
}

func main() {
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	m := &model{log: logger, W: jit.Full(0.1, jit.Float32, 3, 1)}
	fwd := jit.Jit(m.forward)
	step, ls := jit.Jit(update), jit.Jit(loss)
	x := jit.FromSlice([]float32{1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1}, 4, 3)
	y := jit.FromSlice([]float32{1, 0, 1, 0}, 4, 1)
	for s := range 5 {
		_ = fwd.Call(m.W, x)
		m.W = step.Call(m.W, x, y)
		logger.Info("step", "n", s, "loss", ls.Call(m.W, x, y).Item())
	}
}
