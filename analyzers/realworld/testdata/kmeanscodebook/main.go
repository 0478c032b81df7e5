// Command kmeans learns a vector-quantization codebook with Lloyd's
// algorithm on a synthetic 2-D point cloud.
package main

import (
	"fmt"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	nPoints = 400
	nCodes  = 40
	dim     = 2
)

// makeAssigner returns a function computing the one-hot code assignment of
// every point for a codebook of k entries.
func makeAssigner(k int) func(x, c jit.Array) jit.Array {
	return func(x, c jit.Array) jit.Array {
		d := x.Reshape(nPoints, 1, dim).Sub(c.Reshape(1, k, dim)).Pow(2).Sum(2) // [n, k]
		return d.Eq(d.MinReduce(1).Reshape(nPoints, 1)).Astype(jit.Float32)
	}
}

// nearest is the assigner for the full codebook.
func nearest(x, c jit.Array) jit.Array { return makeAssigner(nCodes)(x, c) }

// update moves each code to the mean of its points (vectorized).
func update(x, c, onehot jit.Array) jit.Array {
	counts := onehot.Sum(0).Reshape(-1, 1)
	sums := onehot.Transpose().MatMul(x)
	return jit.Where(counts.Gt(0), sums.Div(counts.Max(1)), c)
}

// usagePerCode reports how many points each code owns, code by code.
func usagePerCode(onehot jit.Array) jit.Array {
	parts := make([]jit.Array, 0, nCodes)
	for j := 0; j < nCodes; j++ { // want unrolledloop
		parts = append(parts, onehot.Slice([]int{0, j}, []int{nPoints, j + 1}).Sum().Reshape(1))
	}
	return jit.Concatenate(0, parts...)
}

// spread is the per-dimension standard deviation of the codebook.
func spread(c jit.Array) jit.Array {
	out := make([]jit.Array, 0, dim)
	for d := 0; d < dim; d++ {
		col := c.Slice([]int{0, d}, []int{nCodes, d + 1})
		out = append(out, col.Sub(col.Mean()).Pow(2).Mean().Sqrt().Reshape(1))
	}
	return jit.Concatenate(0, out...)
}

// reseed jitters dead codes so they can pick up points again.
func reseed(c, counts jit.Array) jit.Array {
	jitter := float32(rand.NormFloat64() * 0.1) // want traceeffect
	return jit.Where(counts.Reshape(-1, 1).Eq(0), c.Add(jitter), c)
}

// reseedWith takes its noise as an argument.
func reseedWith(c, counts, noise jit.Array) jit.Array {
	return jit.Where(counts.Reshape(-1, 1).Eq(0), c.Add(noise), c)
}

// lloydConverged tries to stop inside the compiled step.
func lloydConverged(x, c jit.Array) jit.Array {
	next := update(x, c, makeAssigner(nCodes)(x, c))
	if next.Sub(c).Abs().MaxReduce().Item() < 1e-4 { // want tracedbool
		return c
	}
	return next
}

// iterate runs one Lloyd step, building the assigner on the fly.
func iterate(x, c jit.Array) (jit.Array, jit.Array) {
	assign := jit.Jit(func(x, c jit.Array) jit.Array { return nearest(x, c) }) // want staticargs
	onehot := assign.Call(x, c)
	return jit.Jit(update).Call(x, c, onehot), onehot
}

func cloud(rng *rand.Rand) jit.Array {
	pts := make([]float32, nPoints*dim)
	for i := 0; i < nPoints; i++ {
		cx, cy := float64(i%5)*3, float64(i%3)*4
		pts[i*dim] = float32(cx + rng.NormFloat64())
		pts[i*dim+1] = float32(cy + rng.NormFloat64())
	}
	return jit.FromSlice(pts, nPoints, dim)
}

func main() {
	rng := rand.New(rand.NewSource(3))
	x := cloud(rng)
	c := x.Slice([]int{0, 0}, []int{nCodes, dim})

	for it := 0; it < 6; it++ {
		c, _ = iterate(x, c)
	}
	fmt.Println("after 6 ad-hoc iterations, spread:", jit.Jit(spread).Call(c))

	assign := jit.Jit(makeAssigner(nCodes))
	usage := jit.Jit(usagePerCode)
	step := jit.Jit(update)
	fix := jit.Jit(reseed)
	fixWith := jit.Jit(reseedWith)
	for it := 0; it < 10; it++ {
		onehot := assign.Call(x, c)
		c = step.Call(x, c, onehot)
		counts := usage.Call(onehot)
		if it%2 == 0 {
			c = fix.Call(c, counts)
		} else {
			noise := make([]float32, nCodes*dim)
			for i := range noise {
				noise[i] = float32(rng.NormFloat64() * 0.1)
			}
			c = fixWith.Call(c, counts, jit.FromSlice(noise, nCodes, dim))
		}
		if it%3 == 0 {
			fmt.Printf("iter %d  largest code %.0f points  spread %v\n", it, counts.MaxReduce().Item(), jit.Jit(spread).Call(c))
		}
	}
	fmt.Printf("assign compiles %d over 10 calls\n", assign.Stats().Compiles)
	fmt.Println("converged codebook head:", jit.Jit(lloydConverged).Call(x, c).Slice([]int{0, 0}, []int{2, dim}))
}
