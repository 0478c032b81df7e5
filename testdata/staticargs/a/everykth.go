package a

import "github.com/jitlint/jitlint/jit"

// A learning rate halved every tenth step is three values over thirty
// steps: a few compiles. Halved on every step, it is a new one each call.
func everyKth(x jit.Array) {
	lr := 0.1
	for step := range 30 {
		if step > 0 && step%10 == 0 {
			lr *= 0.5
		}
		scaleLR.Call(lr, x)
	}
	rate := 0.1
	for range 30 {
		rate *= 0.5
		scaleLR.Call(rate, x) // want `static argument lr takes a new value on every iteration`
	}
}
