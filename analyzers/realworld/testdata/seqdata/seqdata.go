// Package seqdata has host-side helpers for sequence pipelines: sliding
// windows, segmentation, bucketing and padding, plus a traceable moving
// average.
package seqdata

import "github.com/jitlint/jitlint/jit"

// Windows cuts series into windows of size with the given stride. The last
// windows may be shorter than size when the series does not divide evenly.
func Windows(series []float32, size, stride int) [][]float32 {
	var out [][]float32
	for start := 0; start < len(series); start += stride {
		end := min(start+size, len(series))
		out = append(out, series[start:end])
		if end == len(series) {
			break
		}
	}
	return out
}

// Segments splits series into runs where |x| stays above thresh.
func Segments(series []float32, thresh float32) [][]float32 {
	var out [][]float32
	start := -1
	for i, x := range series {
		active := x > thresh || x < -thresh
		switch {
		case active && start < 0:
			start = i
		case !active && start >= 0:
			out = append(out, series[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, series[start:])
	}
	return out
}

// Bucket returns the smallest bucket that holds n (the largest bucket if
// none does).
func Bucket(n int, buckets []int) int {
	for _, b := range buckets {
		if n <= b {
			return b
		}
	}
	return buckets[len(buckets)-1]
}

// Pad right-pads xs with zeros to n (truncating if longer) and returns the
// padded values with a 0/1 mask.
func Pad(xs []float32, n int) (vals, mask []float32) {
	vals, mask = make([]float32, n), make([]float32, n)
	for i := 0; i < n && i < len(xs); i++ {
		vals[i], mask[i] = xs[i], 1
	}
	return vals, mask
}

// MovingAverage is a causal moving average of width over a 1-D array; the
// output has len(x)-width+1 elements.
func MovingAverage(x jit.Array, width int) jit.Array {
	n := x.Shape()[0] - width + 1
	acc := x.Slice([]int{0}, []int{n})
	for k := 1; k < width; k++ {
		acc = acc.Add(x.Slice([]int{k}, []int{k + n}))
	}
	return acc.Div(float64(width))
}
