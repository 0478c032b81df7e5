// Package dsp has the 1-D convolution and filter-bank layers of convstack.
package dsp

import (
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Conv1D is a "valid" multi-channel convolution: x is [cin, L], w is
// [cout, cin, k]; the result is [cout, L-k+1]. It is built tap by tap.
func Conv1D(x, w jit.Array) jit.Array {
	cin, n := x.Shape()[0], x.Shape()[1]
	cout, k := w.Shape()[0], w.Shape()[2]
	out := n - k + 1
	acc := jit.Zeros(jit.Float32, cout, out)
	for t := 0; t < k; t++ {
		wt := w.Slice([]int{0, 0, t}, []int{cout, cin, t + 1}).Reshape(cout, cin)
		xt := x.Slice([]int{0, t}, []int{cin, t + out})
		acc = acc.Add(wt.MatMul(xt))
	}
	return acc
}

// Dilated is Conv1D with the taps spread dilation samples apart.
func Dilated(x, w jit.Array, dilation int) jit.Array {
	cin, n := x.Shape()[0], x.Shape()[1]
	cout, k := w.Shape()[0], w.Shape()[2]
	out := n - (k-1)*dilation
	acc := jit.Zeros(jit.Float32, cout, out)
	for t := 0; t < k; t++ {
		wt := w.Slice([]int{0, 0, t}, []int{cout, cin, t + 1}).Reshape(cout, cin)
		xt := x.Slice([]int{0, t * dilation}, []int{cin, t*dilation + out})
		acc = acc.Add(wt.MatMul(xt))
	}
	return acc
}

// WaveNetStack applies gated dilated convolutions with residual
// connections, one per dilation.
func WaveNetStack(x jit.Array, ws []jit.Array, dilations []int) jit.Array {
	h := x
	for i, d := range dilations {
		y := Dilated(h, ws[i], d)
		n := y.Shape()[1]
		tail := h.Slice([]int{0, h.Shape()[1] - n}, []int{h.Shape()[0], h.Shape()[1]})
		h = tail.Add(y.Tanh().Mul(y.Logistic()))
	}
	return h
}

// FilterBank filters a mono signal x [L] with every kernel of bank (each
// of the same length) and stacks the results into [len(bank), L-k+1].
func FilterBank(x jit.Array, bank [][]float32) jit.Array {
	n := x.Shape()[0]
	k := len(bank[0])
	out := n - k + 1
	rows := make([]jit.Array, 0, len(bank))
	for _, kern := range bank {
		acc := jit.Zeros(jit.Float32, out)
		for t, c := range kern {
			acc = acc.Add(x.Slice([]int{t}, []int{t + out}).Mul(float64(c)))
		}
		rows = append(rows, acc.Reshape(1, out))
	}
	return jit.Concatenate(0, rows...)
}

// FIR filters x [L] with the given taps.
func FIR(x jit.Array, taps []float32) jit.Array {
	out := x.Shape()[0] - len(taps) + 1
	acc := jit.Zeros(jit.Float32, out)
	for t, c := range taps {
		acc = acc.Add(x.Slice([]int{t}, []int{t + out}).Mul(float64(c)))
	}
	return acc
}

// Window returns a Hann window of n taps.
func Window(n int) []float32 {
	w := make([]float32, n)
	for i := range w {
		w[i] = float32(0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n-1)))
	}
	return w
}
