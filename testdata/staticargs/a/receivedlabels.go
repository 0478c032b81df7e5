package a

import "github.com/jitlint/jitlint/jit"

// A static string or bool read from each message a worker receives is a
// label (a mode, a topic): its values are not known, and labels take a
// few, so it is not reported; a static number read so is a measurement,
// reported as it changes with the data.

type rlJob struct {
	Mode  string
	Scale float64
	X     jit.Array
}

var rlScore = jit.Jit(func(mode string, x jit.Array) jit.Array {
	if mode == "logit" {
		return x.Sum()
	}
	return x.Sum().Tanh()
}, jit.StaticArgnums(0))

var rlScale = jit.Jit(func(scale float64, x jit.Array) jit.Array { return x.Mul(scale) }, jit.StaticArgnums(0))

func rlWorker(jobs <-chan rlJob, out chan<- jit.Array) {
	for job := range jobs {
		out <- rlScore.Call(job.Mode, job.X)  // not reported: a label from each job
		out <- rlScale.Call(job.Scale, job.X) // want `static argument scale takes a new value on every iteration`
	}
}
