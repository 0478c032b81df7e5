// Command augment ports a torchvision-style augmentation pipeline for a
// small RGB dataset: random crops, horizontal flips, colour jitter and
// per-channel normalisation, seeded so every epoch is reproducible.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	channels = 3
	imgSize  = 40
	cropSize = 32
	nImages  = 12
)

var (
	channelMean = []float32{0.485, 0.456, 0.406}
	channelStd  = []float32{0.229, 0.224, 0.225}
)

// rng drives every random choice of the pipeline.
var rng = rand.New(rand.NewSource(1337))

// CropFlip is the first port of transforms.RandomCrop + RandomHorizontalFlip:
// the crop offsets and the flip are Python ints/bools, so here static
// arguments.
func CropFlip(img jit.Array, top, left int, flip bool) jit.Array {
	crop := img.Slice([]int{0, top, left}, []int{channels, top + cropSize, left + cropSize})
	if flip {
		crop = crop.MatMul(reversal(cropSize))
	}
	return crop
}

// reversal is the anti-identity: x @ J reverses the last axis.
func reversal(n int) jit.Array {
	m := make([]float32, n*n)
	for i := 0; i < n; i++ {
		m[i*n+(n-1-i)] = 1
	}
	return jit.FromSlice(m, n, n)
}

// selection returns the [cropSize, imgSize] one-hot matrix picking rows
// start..start+cropSize-1, in reverse when flip is set.
func selection(start int, flip bool) jit.Array {
	m := make([]float32, cropSize*imgSize)
	for i := 0; i < cropSize; i++ {
		src := start + i
		if flip {
			src = start + cropSize - 1 - i
		}
		m[i*imgSize+src] = 1
	}
	return jit.FromSlice(m, cropSize, imgSize)
}

// CropBySelection crops (and flips) with two selection matrices computed on
// the host: rows [cropSize, imgSize] @ img [C, imgSize, imgSize] @ cols^T.
// The offsets are data, so one program serves every crop.
func CropBySelection(img, rows, cols jit.Array) jit.Array {
	return rows.MatMul(img).MatMul(cols.Transpose())
}

// Normalize applies per-channel (x - mean) / std; in training it also
// applies cutout (DeVries & Taylor) to the centre of the crop.
func Normalize(img jit.Array, train bool) jit.Array {
	out := make([]jit.Array, 0, channels)
	for c := 0; c < channels; c++ {
		plane := img.Slice([]int{c, 0, 0}, []int{c + 1, cropSize, cropSize})
		out = append(out, plane.Sub(channelMean[c]).Div(channelStd[c]))
	}
	x := jit.Concatenate(0, out...)
	if train {
		x = x.Mul(cutoutMask())
	}
	return x
}

// cutoutMask zeros an 8x8 square in the middle of the crop.
func cutoutMask() jit.Array {
	m := make([]float32, cropSize*cropSize)
	for r := 0; r < cropSize; r++ {
		for c := 0; c < cropSize; c++ {
			if r < 12 || r >= 20 || c < 12 || c >= 20 {
				m[r*cropSize+c] = 1
			}
		}
	}
	return jit.FromSlice(m, 1, cropSize, cropSize)
}

// ColorJitter is a port of ColorJitter(brightness=0.4) written as in the
// NumPy version, drawing the factor where it is used.
func ColorJitter(img jit.Array) jit.Array {
	factor := 0.6 + 0.8*rng.Float64() // want traceeffect
	return img.Mul(factor).Min(1).Max(0)
}

// ColorJitterGain takes the brightness factor as an array, drawn by the
// caller for every image.
func ColorJitterGain(img, gain jit.Array) jit.Array {
	return img.Mul(gain).Min(1).Max(0)
}

// synthImage draws a coloured disc on a gradient background.
func synthImage(r *rand.Rand) jit.Array {
	data := make([]float32, channels*imgSize*imgSize)
	cy, cx := 10+r.Float64()*20, 10+r.Float64()*20
	col := []float64{r.Float64(), r.Float64(), r.Float64()}
	for c := 0; c < channels; c++ {
		for y := 0; y < imgSize; y++ {
			for x := 0; x < imgSize; x++ {
				v := 0.3 * float64(x) / imgSize
				if math.Hypot(float64(y)-cy, float64(x)-cx) < 8 {
					v = col[c]
				}
				data[(c*imgSize+y)*imgSize+x] = float32(v)
			}
		}
	}
	return jit.FromSlice(data, channels, imgSize, imgSize)
}

func checksum(x jit.Array) float64 { return x.Sum().Item() }

func main() {
	data := rand.New(rand.NewSource(7))
	images := make([]jit.Array, nImages)
	for i := range images {
		images[i] = synthImage(data)
	}

	cropFlip := jit.Jit(CropFlip, jit.StaticArgnums(1, 2, 3))
	cropSel := jit.Jit(CropBySelection)
	normalize := jit.Jit(Normalize, jit.StaticArgnums(1))
	jitter := jit.Jit(ColorJitter)
	jitterGain := jit.Jit(ColorJitterGain)

	// Epoch 1: the direct port, offsets as static arguments.
	var sumDirect float64
	type aug struct {
		top, left int
		flip      bool
	}
	plan := make([]aug, nImages)
	for i, img := range images {
		a := aug{top: rng.Intn(imgSize - cropSize + 1), left: rng.Intn(imgSize - cropSize + 1), flip: rng.Intn(2) == 1}
		plan[i] = a
		crop := cropFlip.Call(img, a.top, a.left, a.flip) // want staticargs
		sumDirect += checksum(crop)
	}

	// Epoch 1 again with selection matrices: the same crops, one compile.
	var sumSel float64
	for i, img := range images {
		a := plan[i]
		rows := selection(a.top, false)
		cols := selection(a.left, a.flip)
		crop := cropSel.Call(img, rows, cols)
		sumSel += checksum(crop)
	}
	fmt.Printf("crop checksums: static offsets %.3f, selection matrices %.3f\n", sumDirect, sumSel)

	// Colour jitter: first the direct port, then with the gain drawn here.
	var jitterSums, gainSums []float64
	for i, img := range images[:6] {
		rows := selection(plan[i].top, false)
		cols := selection(plan[i].left, plan[i].flip)
		crop := cropSel.Call(img, rows, cols)
		jitterSums = append(jitterSums, checksum(jitter.Call(crop)))
		gain := jit.Scalar(float32(0.6 + 0.8*rng.Float64()))
		gainSums = append(gainSums, checksum(jitterGain.Call(crop, gain)))
	}
	fmt.Printf("jitter (ColorJitter):     %.2f\n", jitterSums)
	fmt.Printf("jitter (ColorJitterGain): %.2f\n", gainSums)

	// Normalise training and validation crops; train alternates with eval
	// as the loader interleaves the two splits.
	var trainMean, evalMean float64
	for i, img := range images {
		rows := selection(plan[i].top, false)
		cols := selection(plan[i].left, plan[i].flip)
		crop := cropSel.Call(img, rows, cols)
		train := i%2 == 0
		x := normalize.Call(crop, train)
		if train {
			trainMean += x.Mean().Item() / (nImages / 2)
		} else {
			evalMean += x.Mean().Item() / (nImages / 2)
		}
	}
	fmt.Printf("normalised means: train %.4f, eval %.4f\n", trainMean, evalMean)

	fmt.Printf("compiles: crop/flip %d, selection %d, normalize %d, jitter %d, jitter-gain %d\n",
		cropFlip.Stats().Compiles, cropSel.Stats().Compiles, normalize.Stats().Compiles,
		jitter.Stats().Compiles, jitterGain.Stats().Compiles)
}
