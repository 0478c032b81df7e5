// Command spectro computes band energies of an audio clip: a helper cuts
// the signal into frames with a Go loop that appends one slice per frame;
// a coarse analysis asks for four long frames (a few staged slices), a
// fine analysis for frames of 8 samples (one staged slice per 8 samples
// of the clip). Band features come from a helper that appends a fixed
// number of filters.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const clipLen = 512

// frames cuts x (1-D) into consecutive frames of width samples.
func frames(x jit.Array, width int) []jit.Array {
	var out []jit.Array
	for start := 0; start+width <= x.Shape()[0]; start += width { // want unrolledloop
		out = append(out, x.Slice([]int{start}, []int{start + width}))
	}
	return out
}

// filterBank returns the mel-ish weights of nBands filters over width
// samples.
func filterBank(nBands, width int) []jit.Array {
	bank := make([]jit.Array, 0, nBands)
	for b := 0; b < nBands; b++ {
		bank = append(bank, jit.Arange(width, jit.Float32).Mul(float64(b+1)/float64(width)).Sin().Abs())
	}
	return bank
}

// coarse returns the energy of each of four quarter-clip frames in each
// of three bands.
func coarse(clip jit.Array) jit.Array {
	width := clip.Shape()[0] / 4
	bank := filterBank(3, width)
	var energies []jit.Array
	for _, f := range frames(clip, width) {
		for _, w := range bank {
			energies = append(energies, f.Mul(w).Mul(f).Sum().Reshape(1))
		}
	}
	return jit.Concatenate(0, energies...)
}

// fine returns the energy of every 8-sample frame.
func fine(clip jit.Array) jit.Array {
	var energies []jit.Array
	for _, f := range frames(clip, 8) { // want unrolledloop
		energies = append(energies, f.Mul(f).Sum().Reshape(1))
	}
	return jit.Concatenate(0, energies...)
}

func clip(seed int) jit.Array {
	data := make([]float32, clipLen)
	for i := range data {
		data[i] = float32((i*seed)%13)/13 - 0.5
	}
	return jit.FromSlice(data)
}

func main() {
	c, f := jit.Jit(coarse), jit.Jit(fine)
	for seed := 1; seed <= 3; seed++ {
		x := clip(seed)
		fmt.Println("clip", seed, c.Call(x).Sum().Item(), f.Call(x).MaxReduce().Item())
	}
}
