package a

import "github.com/jitlint/jitlint/jit"

// A function whose trace always fails (a conversion of a traced value on
// every path) never compiles: jitting it on every request makes no
// compiles to repeat, and the conversion is the finding (tracedbool).

func ftLevel(img jit.Array) (out jit.Array, err error) {
	defer func() {
		if e := recover(); e != nil {
			err = e.(*jit.Error)
		}
	}()
	level := jit.Jit(func(x jit.Array) jit.Array { // not reported: it never compiles
		if x.MaxReduce().Item() < 0.5 {
			return x.Div(x.MaxReduce())
		}
		return x
	})
	return level.Call(img), nil
}

func ftScale(img jit.Array, k float64) jit.Array {
	scale := jit.Jit(func(x jit.Array) jit.Array { // want `jit.Jit runs on every call of ftScale, and ftScale is called in a loop`
		if k > 1 {
			return x.Mul(k)
		}
		return x
	})
	return scale.Call(img)
}

func failingTraces(img jit.Array) {
	for range 10 {
		ftLevel(img)
		ftScale(img, 2)
	}
}
