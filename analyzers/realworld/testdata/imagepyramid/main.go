// Command imagepyramid builds Gaussian and Laplacian pyramids of synthetic
// images at several resolutions, reconstructs them, and runs a multi-scale
// detail enhancement with a gain per level.
package main

import (
	"fmt"
	"math"

	"corpus/imagepyramid/pyr"
	"github.com/jitlint/jitlint/jit"
)

// Enhance is the per-image job: the level count is a static pytree field
// so each pyramid depth gets its own program.
type Enhance struct {
	Image  jit.Array
	Gain   jit.Array // f32[], amplification of the detail bands
	Levels int       `jit:"static"`
}

// checker makes a deterministic test image with edges and a gradient.
func checker(h, w int) jit.Array {
	px := make([]float32, h*w)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := float32(x) / float32(w)
			if (x/8+y/8)%2 == 0 {
				v += 0.5
			}
			px[y*w+x] = v + 0.1*float32(math.Sin(float64(x*y)/17))
		}
	}
	return jit.FromSlice(px, h, w)
}

// mapLevels applies f to every level and collects the results.
func mapLevels[T any](levels []jit.Array, f func(jit.Array) T) []T {
	out := make([]T, len(levels))
	for i, l := range levels {
		out[i] = f(l)
	}
	return out
}

// EnhanceDetail boosts every Laplacian band by Gain and collapses again.
func EnhanceDetail(job Enhance) jit.Array {
	bands := pyr.Laplacian(job.Image, job.Levels)
	acc := bands[len(bands)-1]
	for l := len(bands) - 2; l >= 0; l-- {
		acc = pyr.Up2(acc).Add(bands[l].Mul(job.Gain))
	}
	return acc
}

// Reconstruct collapses a Laplacian pyramid with unit gain.
func Reconstruct(x jit.Array) jit.Array {
	return EnhanceDetail(Enhance{Image: x, Gain: jit.Scalar[float32](1), Levels: 4})
}

var levelsTraced []int

func main() {
	gauss := jit.Jit(func(x jit.Array) []jit.Array { return pyr.Gaussian(x, 4, 2) })
	recon := jit.Jit(Reconstruct)
	enhance := jit.Jit(EnhanceDetail)

	// Batch job: images arrive at three fixed camera resolutions.
	sizes := []int{64, 128, 256}
	for _, s := range sizes {
		for shot := 0; shot < 6; shot++ {
			img := checker(s, s)
			levels := gauss.Call(img)
			energy := mapLevels(levels, func(l jit.Array) float64 { return l.Mean().Item() })
			r := recon.Call(img)
			err := r.Sub(img).Abs().MaxReduce().Item()
			if shot == 0 {
				fmt.Printf("%dx%d: level means %.3f, recon err %.2g\n", s, s, energy, err)
				pyr.Describe(levels)
			}
		}
	}
	fmt.Printf("gaussian compiles %d, reconstruct compiles %d\n", gauss.Stats().Compiles, recon.Stats().Compiles)

	// Detail enhancement with a user-chosen depth; the UI offers 3 or 4.
	img := checker(128, 128)
	for i := 0; i < 12; i++ {
		job := Enhance{Image: img, Gain: jit.Scalar(float32(1 + 0.1*float64(i))), Levels: 3 + i%2}
		out := enhance.Call(job)
		if i >= 10 {
			fmt.Printf("enhance levels=%d gain=%.1f: contrast %.3f\n", job.Levels, 1+0.1*float64(i), out.Sub(out.Mean()).Abs().Mean().Item())
		}
	}

	// Depth sweep for a report: the deep end, 5 to 7 levels.
	for depth := 5; depth <= 7; depth++ {
		out := enhance.Call(Enhance{Image: img, Gain: jit.Scalar[float32](1.5), Levels: depth}) // want staticargs
		fmt.Printf("depth %d: max %.3f\n", depth, out.MaxReduce().Item())
	}

	// Heavy pre-smoothing for the denoise preset, light for the sharp one.
	denoise := jit.Jit(func(x jit.Array) jit.Array {
		return pyr.Blur(x, 40) // want unrolledloop
	})
	sharp := jit.Jit(func(x jit.Array) jit.Array {
		return x.Mul(2).Sub(pyr.Blur(x, 8))
	})
	fmt.Printf("denoise mean %.4f, sharp mean %.4f\n", denoise.Call(img).Mean().Item(), sharp.Call(img).Mean().Item())

	// Pyramids of crops that grow with the zoom slider.
	crops := jit.Jit(func(x jit.Array) []jit.Array {
		levelsTraced = append(levelsTraced, x.Shape()[0]) // want traceeffect
		return pyr.Gaussian(x, 3, 1)
	})
	for zoom := 1; zoom <= 4; zoom++ {
		n := 16 * zoom
		crop := img.Slice([]int{0, 0}, []int{n, n})
		lv := crops.Call(crop) // want shapechurn
		fmt.Printf("crop %d: coarsest %v\n", n, lv[len(lv)-1].Shape())
	}
	fmt.Println("crop sizes traced:", levelsTraced)

	// Crops snapped up to 64 or 128 by padding with the edge mean.
	snapped := jit.Jit(func(x jit.Array) []jit.Array { return pyr.Gaussian(x, 3, 1) })
	for zoom := 1; zoom <= 8; zoom++ {
		n := 12 * zoom
		bucket := 64
		if n > 64 {
			bucket = 128
		}
		crop := img.Slice([]int{0, 0}, []int{n, n})
		fill := crop.Mean().Item()
		padded := jit.Full(fill, jit.Float32, bucket, bucket)
		padded = jit.Concatenate(0,
			jit.Concatenate(1, crop, padded.Slice([]int{0, n}, []int{n, bucket})),
			padded.Slice([]int{n, 0}, []int{bucket, bucket}))
		lv := snapped.Call(padded)
		fmt.Printf("snapped crop %d -> %d: coarsest mean %.3f\n", n, bucket, lv[2].Mean().Item())
	}
	fmt.Printf("snapped compiles %d\n", snapped.Stats().Compiles)
}
