// Package vision holds small image-processing helpers shared by the
// pipelines: filter kernels, zero padding, 2-D correlation over a batch and
// bilinear resize matrices. Images are batches laid out as [B, H, W].
package vision

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Kernel is a small 2-D filter stored row-major.
type Kernel struct {
	Name string
	H, W int
	Taps []float32
}

// At returns the tap at row r, column c.
func (k Kernel) At(r, c int) float32 { return k.Taps[r*k.W+c] }

// Gaussian returns a normalised size x size Gaussian kernel.
func Gaussian(size int, sigma float64) Kernel {
	k := Kernel{Name: fmt.Sprintf("gauss%d", size), H: size, W: size, Taps: make([]float32, size*size)}
	c := float64(size-1) / 2
	var total float64
	for r := 0; r < size; r++ {
		for q := 0; q < size; q++ {
			d2 := (float64(r)-c)*(float64(r)-c) + (float64(q)-c)*(float64(q)-c)
			v := math.Exp(-d2 / (2 * sigma * sigma))
			k.Taps[r*size+q] = float32(v)
			total += v
		}
	}
	for i := range k.Taps {
		k.Taps[i] = float32(float64(k.Taps[i]) / total)
	}
	return k
}

// Box returns a size x size averaging kernel.
func Box(size int) Kernel {
	k := Kernel{Name: fmt.Sprintf("box%d", size), H: size, W: size, Taps: make([]float32, size*size)}
	for i := range k.Taps {
		k.Taps[i] = 1 / float32(size*size)
	}
	return k
}

// Sobel returns the horizontal and vertical 3x3 Sobel kernels.
func Sobel() (gx, gy Kernel) {
	gx = Kernel{Name: "sobel_x", H: 3, W: 3, Taps: []float32{-1, 0, 1, -2, 0, 2, -1, 0, 1}}
	gy = Kernel{Name: "sobel_y", H: 3, W: 3, Taps: []float32{-1, -2, -1, 0, 0, 0, 1, 2, 1}}
	return gx, gy
}

// Laplacian returns the 4-neighbour 3x3 Laplacian.
func Laplacian() Kernel {
	return Kernel{Name: "laplace", H: 3, W: 3, Taps: []float32{0, 1, 0, 1, -4, 1, 0, 1, 0}}
}

// PadZeros pads the last two axes of x ([..., H, W]) with zeros.
func PadZeros(x jit.Array, top, bottom, left, right int) jit.Array {
	return PadConst(x, top, bottom, left, right, 0)
}

// PadConst pads the last two axes of x ([..., H, W]) with value
// (np.pad(mode="constant")).
func PadConst(x jit.Array, top, bottom, left, right int, value float64) jit.Array {
	shape := x.Shape()
	n := len(shape)
	if left+right > 0 {
		parts := []jit.Array{}
		if left > 0 {
			s := append(append([]int{}, shape[:n-1]...), left)
			parts = append(parts, jit.Full(value, x.Dtype(), s...))
		}
		parts = append(parts, x)
		if right > 0 {
			s := append(append([]int{}, shape[:n-1]...), right)
			parts = append(parts, jit.Full(value, x.Dtype(), s...))
		}
		x = jit.Concatenate(n-1, parts...)
		shape = x.Shape()
	}
	if top+bottom > 0 {
		parts := []jit.Array{}
		if top > 0 {
			s := append(append([]int{}, shape[:n-2]...), top, shape[n-1])
			parts = append(parts, jit.Full(value, x.Dtype(), s...))
		}
		parts = append(parts, x)
		if bottom > 0 {
			s := append(append([]int{}, shape[:n-2]...), bottom, shape[n-1])
			parts = append(parts, jit.Full(value, x.Dtype(), s...))
		}
		x = jit.Concatenate(n-2, parts...)
	}
	return x
}

// window returns x[:, dy:dy+h, dx:dx+w] of a [B, H', W'] array.
func window(x jit.Array, dy, dx, h, w int) jit.Array {
	b := x.Shape()[0]
	return x.Slice([]int{0, dy, dx}, []int{b, dy + h, dx + w})
}

// Conv2DSame correlates every image of x [B, H, W] with k (scipy's
// correlate2d(mode="same") with zero fill), one shifted slice per tap.
// Zero taps are skipped.
func Conv2DSame(x jit.Array, k Kernel) jit.Array {
	shape := x.Shape()
	h, w := shape[1], shape[2]
	ph, pw := k.H/2, k.W/2
	xp := PadZeros(x, ph, k.H-1-ph, pw, k.W-1-pw)
	out := jit.Zeros(x.Dtype(), shape...)
	for t := 0; t < k.H*k.W; t++ {
		tap := k.Taps[t]
		if tap == 0 {
			continue
		}
		out = out.Add(window(xp, t/k.W, t%k.W, h, w).Mul(tap))
	}
	return out
}

// Patches3x3 stacks the nine 3x3 neighbourhood shifts of x [B, H, W] on a
// new last axis: [B, H, W, 9] (im2col for a 3x3 "same" convolution).
func Patches3x3(x jit.Array) jit.Array {
	shape := x.Shape()
	b, h, w := shape[0], shape[1], shape[2]
	xp := PadZeros(x, 1, 1, 1, 1)
	cols := make([]jit.Array, 0, 9)
	for t := 0; t < 9; t++ {
		cols = append(cols, window(xp, t/3, t%3, h, w).Reshape(b, h, w, 1))
	}
	return jit.Concatenate(3, cols...)
}

// MaxPool3x3Same is a stride-1 3x3 max filter over x [B, H, W], padding
// with a large negative value so borders are not favoured.
func MaxPool3x3Same(x jit.Array) jit.Array {
	shape := x.Shape()
	h, w := shape[1], shape[2]
	xp := PadConst(x, 1, 1, 1, 1, -1e9)
	out := window(xp, 1, 1, h, w)
	for t := 0; t < 9; t++ {
		out = out.Max(window(xp, t/3, t%3, h, w))
	}
	return out
}

// ResizeMatrix returns the [out, in] bilinear interpolation matrix (half
// pixel centres, as jax.image.resize with method="linear" and no
// antialiasing).
func ResizeMatrix(in, out int) jit.Array {
	m := make([]float32, out*in)
	scale := float64(in) / float64(out)
	for o := 0; o < out; o++ {
		src := (float64(o)+0.5)*scale - 0.5
		lo := int(math.Floor(src))
		frac := src - float64(lo)
		for _, p := range []struct {
			i int
			w float64
		}{{lo, 1 - frac}, {lo + 1, frac}} {
			i := min(max(p.i, 0), in-1)
			m[o*in+i] += float32(p.w)
		}
	}
	return jit.FromSlice(m, out, in)
}

// Resize resamples x [B, H, W] with row matrix rh [OH, H] and column
// matrix rw [OW, W]: rh @ x @ rw^T.
func Resize(x, rh, rw jit.Array) jit.Array {
	return rh.MatMul(x).MatMul(rw.Transpose())
}

// PadImage copies a row-major h x w image into the top-left corner of a
// size x size canvas filled with fill.
func PadImage(pix []float32, h, w, size int, fill float32) []float32 {
	out := make([]float32, size*size)
	for i := range out {
		out[i] = fill
	}
	for r := 0; r < h; r++ {
		copy(out[r*size:r*size+w], pix[r*w:(r+1)*w])
	}
	return out
}

// Bucket returns the smallest bucket that holds n, or the last one.
func Bucket(n int, buckets []int) int {
	for _, b := range buckets {
		if n <= b {
			return b
		}
	}
	return buckets[len(buckets)-1]
}
