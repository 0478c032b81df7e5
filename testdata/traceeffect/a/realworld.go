package a

import (
	"fmt"
	"math/rand"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

// Metrics counts the steps of a training loop.
type Metrics struct {
	steps  int
	losses []float64
	calls  atomic.Int64
}

var (
	traced atomic.Int32
	total  int32
)

// Step is jitted as a method value: its receiver outlives the trace.
func (m *Metrics) Step(x jit.Array) jit.Array {
	m.steps++                  // want `assignment to m.steps \(state of the receiver, which outlives the trace\) runs once per trace`
	m.calls.Add(1)             // want `m.calls.Add updates shared state once per trace`
	atomic.AddInt32(&total, 1) // want `atomic.AddInt32 updates shared state once per trace`
	traced.Add(1)              // want `traced.Add updates shared state once per trace`
	_ = m.calls.Load()
	m.record(x)
	return x.Mul(2)
}

func (m *Metrics) record(x jit.Array) {
	m.losses = append(m.losses, 0) // want `assignment to m.losses \(state of the receiver`
}

var metrics = &Metrics{}

var step = jit.Jit(metrics.Step)

// Norm has a value receiver: its writes do not outlive the call.
type Norm struct{ eps float64 }

// Apply changes only its copy of the receiver: not reported.
func (n Norm) Apply(x jit.Array) jit.Array {
	n.eps = 1e-5
	return x.Add(n.eps)
}

var apply = jit.Jit(Norm{}.Apply)

// seed changes from run to run.
var seed = rand.Int63()

// Noise makes a generator from the package's seed: making it is not a
// draw, drawing is (the number is frozen at trace time).
func Noise(x jit.Array) jit.Array {
	rng := rand.New(rand.NewSource(seed))
	return x.Add(rng.Float64()) // want `rng.Float64 draws once, at trace time`
}

var noise = jit.Jit(Noise)

// Jitter makes its generator from a constant seed: the same number on
// every call, traced or not, so freezing it changes nothing: not reported.
func Jitter(x jit.Array) jit.Array {
	rng := rand.New(rand.NewSource(42))
	return x.Add(rng.Float64())
}

var jitter = jit.Jit(Jitter)

// Logged logs through a helper, and only eagerly behind a guard.
func Logged(x jit.Array) jit.Array {
	logStep("traced") // logStep is traced: its print is reported there
	if !x.IsTracer() {
		fmt.Println("eager value", x)
	}
	return x.Sin()
}

func logStep(s string) {
	fmt.Println("step", s) // want `fmt.Println runs once per trace`
}

var logged = jit.Jit(Logged)

// Counter keeps a local counter: not an effect.
func Counter(x jit.Array) jit.Array {
	var local atomic.Int32
	local.Add(1)
	acc := &Metrics{}
	acc.steps++
	return x
}

var counter = jit.Jit(Counter)

// makeStep returns a closure that records into a buffer of its caller.
func makeStep(buf *[]string) func(jit.Array) jit.Array {
	return func(x jit.Array) jit.Array {
		*buf = append(*buf, "step") // want `assignment to captured variable buf runs once per trace`
		return x.Add(1)
	}
}

func runMakeStep(x jit.Array) {
	var buf []string
	jit.Jit(makeStep(&buf)).Call(x)
}
