package jit_test

import (
	"testing"

	"github.com/jitlint/jitlint/jit"
)

// heavyLoss is the codelab's Heavy (20 × y = sin(y)·cos(y) + tanh(y)),
// summed to a scalar so that it has a gradient.
func heavyLoss(x jit.Array) jit.Array {
	y := x
	for range 20 {
		y = y.Sin().Mul(y.Cos()).Add(y.Tanh())
	}
	return y.Sum()
}

// BenchmarkGradVsForward times the jitted forward pass of heavyLoss and its
// jitted gradient side by side (cached calls; the ratio of the two is the
// cost of reverse mode).
func BenchmarkGradVsForward(b *testing.B) {
	x := jit.Arange(1_000_000, jit.Float32).Mul(1e-6)
	fwd := jit.Jit(heavyLoss)
	grad := jit.Jit(jit.Grad[func(jit.Array) jit.Array](heavyLoss))
	fwd.Call(x)
	grad.Call(x)
	b.Run("forward", func(b *testing.B) {
		for b.Loop() {
			fwd.Call(x).BlockUntilReady()
		}
	})
	b.Run("grad", func(b *testing.B) {
		for b.Loop() {
			grad.Call(x).BlockUntilReady()
		}
	})
}

// perExampleMLP is a two-layer network with a softmax, on one example.
func perExampleMLP(x, w1, w2 jit.Array) jit.Array {
	e := x.MatMul(w1).Tanh().MatMul(w2).Exp()
	return e.Div(e.Sum())
}

// batchedMLP is the same network written by hand for a batch of rows.
func batchedMLP(xs, w1, w2 jit.Array) jit.Array {
	e := xs.MatMul(w1).Tanh().MatMul(w2).Exp()
	return e.Div(e.Sum(1).Reshape(xs.Shape()[0], 1))
}

// BenchmarkVmapVsHandBatched times Jit(Vmap(perExampleMLP)) against
// Jit(batchedMLP) on a batch of 512 rows of 256 features.
func BenchmarkVmapVsHandBatched(b *testing.B) {
	xs := jit.Arange(512*256, jit.Float32).Mul(1e-5).Reshape(512, 256).Sin()
	w1 := jit.Arange(256*256, jit.Float32).Mul(1e-4).Reshape(256, 256).Cos().Mul(0.1)
	w2 := jit.Arange(256*64, jit.Float32).Mul(3e-4).Reshape(256, 64).Sin().Mul(0.1)
	vm := jit.Jit(jit.Vmap(perExampleMLP, jit.InAxes(0, jit.NotMapped, jit.NotMapped)))
	hand := jit.Jit(batchedMLP)
	vm.Call(xs, w1, w2)
	hand.Call(xs, w1, w2)
	b.Run("vmap", func(b *testing.B) {
		for b.Loop() {
			vm.Call(xs, w1, w2).BlockUntilReady()
		}
	})
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			hand.Call(xs, w1, w2).BlockUntilReady()
		}
	})
}

// TestVmapMatchesHandBatched keeps the benchmark's two programs honest.
func TestVmapMatchesHandBatched(t *testing.T) {
	xs := jit.Arange(4*8, jit.Float32).Mul(0.1).Reshape(4, 8).Sin()
	w1 := jit.Arange(8*8, jit.Float32).Mul(0.05).Reshape(8, 8).Cos()
	w2 := jit.Arange(8*3, jit.Float32).Mul(0.2).Reshape(8, 3).Sin()
	got := jit.Vmap(perExampleMLP, jit.InAxes(0, jit.NotMapped, jit.NotMapped))(xs, w1, w2)
	near(t, "vmap vs hand-batched", got.Float64s(), batchedMLP(xs, w1, w2).Float64s())
}
