// Command augment feeds an image classifier random crops, as a port of a
// JAX augmentation pipeline does: crop sizes drawn from a short list the
// model compiles once each, and crop sizes drawn from a range, a new shape
// almost every batch.
package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/jitlint/jitlint/jit"
)

const imageSize = 128

// classify pools a batch of square crops into per-image scores.
func classify(crops jit.Array) jit.Array {
	return crops.Mul(0.1).Tanh().Mean(1, 2)
}

// image is a deterministic greyscale test image.
func image(batch int) jit.Array {
	data := make([]float32, batch*imageSize*imageSize)
	for i := range data {
		data[i] = float32(i%251) / 251
	}
	return jit.FromSlice(data, batch, imageSize, imageSize)
}

// crop cuts a size×size window at (top, left) from every image of x.
func crop(x jit.Array, top, left, size int) jit.Array {
	b := x.Shape()[0]
	return x.Slice([]int{0, top, left}, []int{b, top + size, left + size})
}

// pipeline applies a crop policy to each batch.
type pipeline struct {
	rng  *rand.Rand
	size func(*rand.Rand) int
}

func (p pipeline) next(x jit.Array) jit.Array {
	s := p.size(p.rng)
	top, left := p.rng.IntN(imageSize-s+1), p.rng.IntN(imageSize-s+1)
	return crop(x, top, left, s)
}

func main() {
	model := jit.Jit(classify)
	x := image(2)
	scales := pipeline{rng: rand.New(rand.NewPCG(1, 2)), size: func(r *rand.Rand) int { return []int{24, 28, 32}[r.IntN(3)] }}
	for epoch := 0; epoch < 12; epoch++ {
		out := model.Call(scales.next(x))
		fmt.Println("scale crop", epoch, out.Sum().Item())
	}
	free := pipeline{rng: rand.New(rand.NewPCG(3, 4)), size: func(r *rand.Rand) int { return 8 + r.IntN(100) }}
	for epoch := 0; epoch < 8; epoch++ {
		batch := free.next(x)
		out := model.Call(batch) // want shapechurn
		fmt.Println("free crop", epoch, batch.Shape(), out.Sum().Item())
	}
}
