// Package rolling holds the window and padding helpers shared by the
// time-series programs: the pieces of pandas' Series.rolling that we need,
// written over jit.Arrays so they can be used inside jitted kernels.
package rolling

import (
	"fmt"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

// WindowSum returns the sums of every full window of length win along a
// 1-D array x of length n: out[i] = x[i] + ... + x[i+win-1], length n-win+1.
// It is the "shift and add" formulation of a rolling sum (no cumsum in jit),
// so it stages win slices; keep windows short.
func WindowSum(x jit.Array, win int) jit.Array {
	n := x.Shape()[0]
	if win < 1 || win > n {
		panic(fmt.Sprintf("rolling: window %d for a series of length %d", win, n))
	}
	m := n - win + 1
	acc := x.Slice([]int{0}, []int{m})
	for k := 1; k < win; k++ {
		acc = acc.Add(x.Slice([]int{k}, []int{k + m}))
	}
	return acc
}

// Tail returns the elements of x from index start on (x[start:]).
func Tail(x jit.Array, start int) jit.Array {
	return x.Slice([]int{start}, []int{x.Shape()[0]})
}

// MaskedMean averages x where mask is 1.
func MaskedMean(x, mask jit.Array) jit.Array {
	return x.Mul(mask).Sum().Div(mask.Sum().Max(1))
}

// MaskedStd is the population standard deviation of x where mask is 1.
func MaskedStd(x, mask jit.Array) jit.Array {
	mu := MaskedMean(x, mask)
	d := x.Sub(mu).Mul(mask)
	return d.Mul(d).Sum().Div(mask.Sum().Max(1)).Sqrt()
}

// Bucket returns the smallest bucket size that holds n elements.
func Bucket(n int, buckets []int) (int, error) {
	b := append([]int(nil), buckets...)
	sort.Ints(b)
	for _, size := range b {
		if n <= size {
			return size, nil
		}
	}
	return 0, fmt.Errorf("rolling: %d elements exceed the largest bucket %d", n, b[len(b)-1])
}

// PadToBucket copies values into an f32 array right-padded to the smallest
// bucket that fits, with its 0/1 mask.
func PadToBucket(values []float32, buckets []int) (padded, mask jit.Array, err error) {
	size, err := Bucket(len(values), buckets)
	if err != nil {
		return jit.Array{}, jit.Array{}, err
	}
	return jit.PadTo(jit.FromSlice(values), size)
}

// PadInts right-pads an int32 column to size with fill.
func PadInts(values []int32, size int, fill int32) jit.Array {
	out := make([]int32, size)
	for i := range out {
		out[i] = fill
	}
	copy(out, values)
	return jit.FromSlice(out)
}
