package jit_test

import (
	"testing"
	"time"

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
// jitted gradient (cached calls) alternately in one loop, so that both see
// the same machine load, and reports each one's time and their ratio (the
// cost of reverse mode).
func BenchmarkGradVsForward(b *testing.B) {
	x := jit.Arange(1_000_000, jit.Float32).Mul(1e-6)
	fwd := jit.Jit(heavyLoss)
	grad := jit.Jit(jit.Grad[func(jit.Array) jit.Array](heavyLoss))
	sideBySide(b, "forward", func() { fwd.Call(x).BlockUntilReady() }, "grad", func() { grad.Call(x).BlockUntilReady() })
}

// sideBySide runs a and c alternately and reports their mean times in ms
// and the ratio c/a.
func sideBySide(b *testing.B, an string, a func(), cn string, c func()) {
	a()
	c()
	var ta, tc time.Duration
	for b.Loop() {
		start := time.Now()
		a()
		mid := time.Now()
		c()
		ta, tc = ta+mid.Sub(start), tc+time.Since(mid)
	}
	n := float64(b.N)
	b.ReportMetric(float64(ta.Milliseconds())/n, an+"-ms")
	b.ReportMetric(float64(tc.Milliseconds())/n, cn+"-ms")
	b.ReportMetric(float64(tc)/float64(ta), cn+"/"+an)
	b.ReportMetric(0, "ns/op")
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
	sideBySide(b, "hand", func() { hand.Call(xs, w1, w2).BlockUntilReady() }, "vmap", func() { vm.Call(xs, w1, w2).BlockUntilReady() })
}

// TestVmapMatchesHandBatched keeps the benchmark's two programs honest.
func TestVmapMatchesHandBatched(t *testing.T) {
	xs := jit.Arange(4*8, jit.Float32).Mul(0.1).Reshape(4, 8).Sin()
	w1 := jit.Arange(8*8, jit.Float32).Mul(0.05).Reshape(8, 8).Cos()
	w2 := jit.Arange(8*3, jit.Float32).Mul(0.2).Reshape(8, 3).Sin()
	got := jit.Vmap(perExampleMLP, jit.InAxes(0, jit.NotMapped, jit.NotMapped))(xs, w1, w2)
	near(t, "vmap vs hand-batched", got.Float64s(), batchedMLP(xs, w1, w2).Float64s())
}
