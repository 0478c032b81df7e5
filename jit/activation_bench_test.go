package jit_test

import (
	"testing"

	"github.com/jitlint/jitlint/jit"
)

// BenchmarkActivations times cached calls of jitted activations and of
// their gradients on 1M f32 elements in [-1, 1), and tracing plus compiling
// the gradient of a 4-layer ReLU network, to compare the functions' cost
// across changes of their derivative rules (bench/RESULTS.md, issue 26).
func BenchmarkActivations(b *testing.B) {
	x := jit.Arange(1<<20, jit.Float32).Mul(2.0 / (1 << 20)).Sub(1)
	sum := func(f func(jit.Array) jit.Array) func(jit.Array) jit.Array {
		return func(x jit.Array) jit.Array { return f(x).Sum() }
	}
	abs := func(x jit.Array) jit.Array { return x.Abs() }
	for _, c := range []struct {
		name string
		f    func(jit.Array) jit.Array
	}{
		{"relu", jit.Relu}, {"softplus", jit.Softplus},
		{"grad_relu", jit.Grad[func(jit.Array) jit.Array](sum(jit.Relu))},
		{"grad_softplus", jit.Grad[func(jit.Array) jit.Array](sum(jit.Softplus))},
		{"grad_abs", jit.Grad[func(jit.Array) jit.Array](sum(abs))},
	} {
		b.Run(c.name, func(b *testing.B) {
			f := jit.Jit(c.f)
			f.Call(x).BlockUntilReady()
			for b.Loop() {
				f.Call(x).BlockUntilReady()
			}
		})
	}
	b.Run("trace_compile_grad_mlp", func(b *testing.B) {
		w := jit.Ones(jit.Float32, 64, 64).Mul(0.01)
		loss := func(x jit.Array) jit.Array {
			for range 4 {
				x = jit.Relu(x.MatMul(w))
			}
			return x.Sum()
		}
		xs := jit.Ones(jit.Float32, 8, 64)
		for b.Loop() {
			//jitlint:ignore staticargs a new jit function per iteration: the benchmark times the trace and compile
			jit.Jit(jit.Grad[func(jit.Array) jit.Array](loss)).Call(xs).BlockUntilReady()
		}
	})
}
