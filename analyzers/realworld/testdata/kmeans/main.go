// Command kmeans clusters points with Lloyd's algorithm; one jitted step
// per iteration, the k centroids updated by a short Go loop.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const k = 3

// step assigns each point to its nearest centroid and moves the centroids.
func step(points jit.Array, cs []jit.Array) ([]jit.Array, jit.Array) {
	var dists []jit.Array
	for c := 0; c < k; c++ {
		d := points.Sub(cs[c]).Pow(2).Sum(1)
		dists = append(dists, d)
	}
	best := dists[0]
	for _, d := range dists[1:] {
		best = best.Min(d)
	}
	next := make([]jit.Array, k)
	for c := 0; c < k; c++ {
		w := dists[c].Eq(best).Astype(jit.Float32).Reshape(64, 1)
		next[c] = points.Mul(w).Sum(0).Div(w.Sum().Add(1e-6))
	}
	return next, best.Sum()
}

func main() {
	pts := make([]float32, 64*2)
	for i := range 64 {
		pts[2*i] = float32(math.Cos(float64(i)) + float64(i%3)*4)
		pts[2*i+1] = float32(math.Sin(float64(i)) + float64(i%3)*2)
	}
	points := jit.FromSlice(pts, 64, 2)
	cs := []jit.Array{jit.FromSlice([]float32{0, 0}), jit.FromSlice([]float32{4, 2}), jit.FromSlice([]float32{8, 4})}
	f := jit.Jit(step)
	var inertia jit.Array
	for it := 0; it < 8; it++ {
		cs, inertia = f.Call(points, cs)
		fmt.Printf("iteration %d inertia %.3f\n", it, inertia.Item())
	}
}
