package a

import "github.com/jitlint/jitlint/jit"

// A handler that a dispatcher looks up and calls runs as often as the
// dispatcher does: when main calls the dispatcher in a loop, a jit.Jit of
// a closure in the handler is a new wrapper on every command.

type dpHandler func(x jit.Array, k float64) jit.Array

func dpCalibrate(x jit.Array, k float64) jit.Array {
	f := jit.Jit(func(x jit.Array) jit.Array { return x.Add(k) }) // want `jit.Jit runs on every call of dpCalibrate, and dpCalibrate is called by dpRun, and dpRun is called by dispatchers, in a loop`
	return f.Call(x)
}

func dpNamed(x jit.Array, k float64) jit.Array {
	return jit.Jit(dpAbs).Call(x) // not reported: a named function's wrappers share one cache
}

func dpAbs(x jit.Array) jit.Array { return x.Abs() }

var dpCommands = map[string]dpHandler{"calibrate": dpCalibrate, "named": dpNamed}

func dpRun(name string, x jit.Array) jit.Array {
	h, ok := dpCommands[name]
	if !ok {
		return x
	}
	return h(x, 1)
}

func dispatchers(x jit.Array) {
	for _, name := range []string{"calibrate", "named", "calibrate", "calibrate"} {
		dpRun(name, x)
	}
}
