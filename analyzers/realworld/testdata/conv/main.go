// Command conv runs a small 1-D CNN written with slices: per-layer
// configurations from a []layerSpec literal, a convolution that loops
// over kernel taps (a few) and one that loops over output positions (one
// per element of the signal), and an image batch whose width changes.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type layerSpec struct {
	Kernel int
	Scale  float64
}

var specs = []layerSpec{{Kernel: 3, Scale: 0.5}, {Kernel: 5, Scale: 0.25}, {Kernel: 3, Scale: 1}}

// convTaps is a "valid" convolution with a box kernel written as a sum of
// shifted slices: one slice per tap.
func convTaps(x jit.Array, spec layerSpec) jit.Array {
	n := x.Shape()[0]
	out := x.Slice([]int{0}, []int{n - spec.Kernel + 1})
	for k := 1; k < spec.Kernel; k++ {
		out = out.Add(x.Slice([]int{k}, []int{n - spec.Kernel + 1 + k}))
	}
	return out.Mul(spec.Scale)
}

// convPositions computes each output position separately and stitches
// them together: one slice and one sum per position.
func convPositions(x jit.Array, spec layerSpec) jit.Array {
	n := x.Shape()[0]
	var cols []jit.Array
	for i := 0; i+spec.Kernel <= n; i++ { // want unrolledloop
		cols = append(cols, x.Slice([]int{i}, []int{i + spec.Kernel}).Sum().Reshape(1))
	}
	return jit.Concatenate(0, cols...).Mul(spec.Scale)
}

func network(x jit.Array) jit.Array {
	for _, s := range specs {
		x = convTaps(x, s).Tanh()
	}
	return x
}

func slowNetwork(x jit.Array) jit.Array {
	for _, s := range specs[:1] {
		x = convPositions(x, s).Tanh()
	}
	return x
}

func pool(x jit.Array) jit.Array { return x.Mean() }

func main() {
	signal := make([]float32, 64)
	for i := range signal {
		signal[i] = float32(i%7) / 7
	}
	x := jit.FromSlice(signal)
	fast, slow := jit.Jit(network), jit.Jit(slowNetwork)
	for range 3 {
		fmt.Println(fast.Call(x).Sum().Item(), slow.Call(x).Sum().Item())
	}

	// Crops of growing width: each width is a new shape.
	p := jit.Jit(pool)
	for w := 8; w <= 64; w += 8 {
		fmt.Println("crop", w, p.Call(x.Slice([]int{0}, []int{w})).Item()) // want shapechurn
	}
	// A window of fixed width sliding along the signal keeps its shape.
	for off := 0; off+16 <= 64; off += 4 {
		p.Call(x.Slice([]int{off}, []int{off + 16}))
	}
}
