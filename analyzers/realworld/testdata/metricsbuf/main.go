// Command metricsbuf logs training metrics into an in-memory buffer that a
// reporter flushes every few steps: one model writes its line from inside
// the jitted step (so the line is written once, while tracing, with a
// tracer in it); the other prints values from the step with jit.DebugPrint
// and writes the buffer on the host.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/jitlint/jitlint/jit"
)

// reporter collects metric lines until flushed.
type reporter struct {
	buf   bytes.Buffer
	lines int
}

func (r *reporter) flush() {
	os.Stdout.Write(r.buf.Bytes())
	r.buf.Reset()
}

// model is a linear layer that reports its metrics to rep.
type model struct {
	rep *reporter
	lr  float64
}

// step takes one gradient step of a mean-squared loss and logs the loss
// into the buffer.
func (m *model) step(w, x, y jit.Array) jit.Array {
	d := x.Mul(w).Sub(y)
	l := d.Mul(d).Mean()
	fmt.Fprintf(&m.rep.buf, "loss=%v\n", l) // want traceeffect
	m.rep.lines++                           // want traceeffect
	return w.Sub(d.Mul(x).Mean().Mul(2 * m.lr))
}

// stepQuiet is step that prints its loss with jit.DebugPrint.
func (m *model) stepQuiet(w, x, y jit.Array) (jit.Array, jit.Array) {
	d := x.Mul(w).Sub(y)
	l := d.Mul(d).Mean()
	jit.DebugPrint("loss={}", l)
	return w.Sub(d.Mul(x).Mean().Mul(2 * m.lr)), l
}

func main() {
	x := jit.FromSlice([]float32{1, 2, 3, 4})
	y := x.Mul(2)
	rep := &reporter{}
	m := &model{rep: rep, lr: 0.02}
	step := jit.Jit(m.step)
	quiet := jit.Jit(m.stepQuiet)
	w, v := jit.Scalar(float32(0)), jit.Scalar(float32(0))
	for i := 0; i < 6; i++ {
		w = step.Call(w, x, y)
		var l jit.Array
		v, l = quiet.Call(v, x, y)
		fmt.Fprintf(&rep.buf, "step %d host loss=%.4f\n", i, l.Item())
		rep.lines++
		if i%3 == 2 {
			rep.flush()
		}
	}
	fmt.Println("lines:", rep.lines, "w:", w.Item(), "v:", v.Item())
}
