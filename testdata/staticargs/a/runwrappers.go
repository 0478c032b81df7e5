package a

import "github.com/jitlint/jitlint/jit"

// A closure jitted once per run of a function that runs many times: each
// run compiles its own wrapper, which is churn when the run calls it once
// (a handler per request) and not when it calls it on every iteration of
// a loop (a worker over its jobs).

func rwModel(x jit.Array) jit.Array { return x.Tanh() }

func rwHandle(x jit.Array, bias float64) jit.Array {
	f := jit.Jit(func(x jit.Array) jit.Array { return rwModel(x).Add(bias) }) // want `jit.Jit runs on every call of rwHandle, and rwHandle is called in a loop`
	return f.Call(x)
}

func rwWorker(id int, jobs []jit.Array) {
	lim := 2 + float64(id)
	clip := jit.Jit(func(x jit.Array) jit.Array { return x.Min(lim) }) // not reported: one compile for the worker's many jobs
	for _, x := range jobs {
		clip.Call(x)
	}
}

func rwServe(xs []jit.Array) {
	for i, x := range xs {
		rwHandle(x, float64(i))
	}
	for id := range 4 {
		go rwWorker(id, xs)
	}
}
