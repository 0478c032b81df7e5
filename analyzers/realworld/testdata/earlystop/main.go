// Command earlystop fits a line by gradient descent and stops early when
// the update is small: first with the check done eagerly between jitted
// steps, then with the check inside the jitted function through a helper.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func update(w, x, y jit.Array) jit.Array {
	grad := x.Mul(w).Sub(y).Mul(x).Mean().Mul(2)
	return w.Sub(grad.Mul(0.1))
}

// small reports whether an update is below the tolerance.
func small(d jit.Array) bool {
	return d.Abs().Lt(1e-4).Bool() // want tracedbool
}

// fit runs up to 20 steps and stops when small says so.
func fit(w, x, y jit.Array) jit.Array {
	for i := 0; i < 20; i++ {
		next := update(w, x, y)
		if small(next.Sub(w)) {
			return next
		}
		w = next
	}
	return w
}

func main() {
	x := jit.FromSlice([]float32{1, 2, 3, 4})
	y := x.Mul(3)
	step := jit.Jit(update)
	w := jit.Scalar(float32(0))
	for i := 0; i < 200; i++ {
		next := step.Call(w, x, y)
		if next.Sub(w).Abs().Lt(1e-4).Bool() {
			fmt.Println("converged after", i, "steps:", next.Item())
			break
		}
		w = next
	}
	fmt.Println(jit.Jit(fit).Call(jit.Scalar(float32(0)), x, y))
}
