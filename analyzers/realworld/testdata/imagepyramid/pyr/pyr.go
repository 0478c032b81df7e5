// Package pyr has the image ops of the pyramid builder: separable blurs,
// 2x decimation and upsampling over (H, W) float32 images.
package pyr

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// shift returns x moved by one pixel along axis with edge clamping.
func shift(x jit.Array, axis, dir int) jit.Array {
	sh := x.Shape()
	n := sh[axis]
	start := make([]int, len(sh))
	limit := append([]int(nil), sh...)
	edgeStart := make([]int, len(sh))
	edgeLimit := append([]int(nil), sh...)
	if dir > 0 { // out[i] = x[i-1]
		limit[axis] = n - 1
		edgeLimit[axis] = 1
		return jit.Concatenate(axis, x.Slice(edgeStart, edgeLimit), x.Slice(start, limit))
	}
	start[axis] = 1
	edgeStart[axis] = n - 1
	return jit.Concatenate(axis, x.Slice(start, limit), x.Slice(edgeStart, edgeLimit))
}

// Blur applies a [1 2 1]/4 binomial filter along both axes, passes times.
func Blur(x jit.Array, passes int) jit.Array {
	for p := 0; p < passes; p++ {
		x = shift(x, 0, 1).Add(x.Mul(2)).Add(shift(x, 0, -1)).Mul(0.25)
		x = shift(x, 1, 1).Add(x.Mul(2)).Add(shift(x, 1, -1)).Mul(0.25)
	}
	return x
}

// Down2 averages 2x2 blocks: (H, W) -> (H/2, W/2).
func Down2(x jit.Array) jit.Array {
	h, w := x.Shape()[0], x.Shape()[1]
	return x.Reshape(h/2, 2, w/2, 2).Mean(1, 3)
}

// Up2 repeats each pixel into a 2x2 block: (H, W) -> (2H, 2W).
func Up2(x jit.Array) jit.Array {
	h, w := x.Shape()[0], x.Shape()[1]
	col := x.Reshape(h, w, 1)
	col = jit.Concatenate(2, col, col).Reshape(h, 2*w, 1)
	row := col.Reshape(h, 1, 2*w)
	return jit.Concatenate(1, row, row).Reshape(2*h, 2*w)
}

// Gaussian builds levels of a Gaussian pyramid, blurring before each
// decimation; levels is the number of images returned (the input first).
func Gaussian(x jit.Array, levels, smooth int) []jit.Array {
	out := []jit.Array{x}
	for l := 1; l < levels; l++ {
		x = Down2(Blur(x, smooth))
		out = append(out, x)
	}
	return out
}

// Laplacian returns the band-pass levels of x plus the coarsest residual.
func Laplacian(x jit.Array, levels int) []jit.Array {
	g := Gaussian(x, levels, 1)
	out := make([]jit.Array, 0, levels)
	for l := 0; l+1 < len(g); l++ {
		out = append(out, g[l].Sub(Up2(g[l+1])))
	}
	return append(out, g[len(g)-1])
}

// Describe prints the level shapes; meant for debugging on the host.
func Describe(levels []jit.Array) {
	for i, l := range levels {
		fmt.Printf("  level %d: %v\n", i, l.Shape())
	}
}
