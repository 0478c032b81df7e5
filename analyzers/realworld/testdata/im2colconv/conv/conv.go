// Package conv implements 2-D convolution as im2col + matrix product, and
// a set of classic filters that provide their kernels.
package conv

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Filter is an image filter given by a square k x k kernel.
type Filter interface {
	Name() string
	Size() int
	Kernel() []float32
}

// Box averages a k x k neighbourhood.
type Box struct{ K int }

func (b Box) Name() string { return fmt.Sprintf("box%d", b.K) }
func (b Box) Size() int    { return b.K }
func (b Box) Kernel() []float32 {
	w := make([]float32, b.K*b.K)
	for i := range w {
		w[i] = 1 / float32(b.K*b.K)
	}
	return w
}

// Gaussian is a sampled, normalised Gaussian of the given sigma.
type Gaussian struct {
	K     int
	Sigma float64
}

func (g Gaussian) Name() string { return fmt.Sprintf("gauss%d", g.K) }
func (g Gaussian) Size() int    { return g.K }
func (g Gaussian) Kernel() []float32 {
	w := make([]float32, g.K*g.K)
	var sum float64
	c := float64(g.K-1) / 2
	for y := 0; y < g.K; y++ {
		for x := 0; x < g.K; x++ {
			v := math.Exp(-((float64(x)-c)*(float64(x)-c) + (float64(y)-c)*(float64(y)-c)) / (2 * g.Sigma * g.Sigma))
			w[y*g.K+x] = float32(v)
			sum += v
		}
	}
	for i := range w {
		w[i] /= float32(sum)
	}
	return w
}

// Sharpen is an unsharp 3x3 Laplacian sharpening kernel.
type Sharpen struct{ Amount float32 }

func (s Sharpen) Name() string { return "sharpen" }
func (s Sharpen) Size() int    { return 3 }
func (s Sharpen) Kernel() []float32 {
	a := s.Amount
	return []float32{0, -a, 0, -a, 1 + 4*a, -a, 0, -a, 0}
}

// SobelX is the horizontal derivative kernel.
type SobelX struct{}

func (SobelX) Name() string      { return "sobelx" }
func (SobelX) Size() int         { return 3 }
func (SobelX) Kernel() []float32 { return []float32{-1, 0, 1, -2, 0, 2, -1, 0, 1} }

// Im2Col gathers every k x k window of the (H, W) image x (valid
// positions only) into a (OH*OW, k*k) patch matrix, one column per kernel
// tap.
func Im2Col(x jit.Array, k int) jit.Array {
	h, w := x.Shape()[0], x.Shape()[1]
	oh, ow := h-k+1, w-k+1
	cols := make([]jit.Array, 0, k*k)
	for tap := 0; tap < k*k; tap++ {
		dy, dx := tap/k, tap%k
		win := x.Slice([]int{dy, dx}, []int{dy + oh, dx + ow})
		cols = append(cols, win.Reshape(oh*ow, 1))
	}
	return jit.Concatenate(1, cols...)
}

// Conv2D convolves x with the k x k kernel w (f32[k*k]).
func Conv2D(x, w jit.Array, k int) jit.Array {
	h, wd := x.Shape()[0], x.Shape()[1]
	return Im2Col(x, k).MatMul(w.Reshape(k*k, 1)).Reshape(h-k+1, wd-k+1)
}
