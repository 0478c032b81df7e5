// Command imageaug runs a small image augmentation pipeline on synthetic
// RGB images: random and centre crops, horizontal and vertical flips,
// rotations by small angles, multi-scale resizes, brightness jitter and
// per-channel normalisation.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	channels = 3
	side     = 40 // source images are side x side
	cropSide = 24
)

var (
	channelMean = []float64{0.485, 0.456, 0.406}
	channelStd  = []float64{0.229, 0.224, 0.225}
)

// synthImage draws a deterministic [C, side, side] image: gradients and a
// bright square whose position depends on k.
func synthImage(k int) jit.Array {
	data := make([]float32, channels*side*side)
	for c := 0; c < channels; c++ {
		for i := 0; i < side; i++ {
			for j := 0; j < side; j++ {
				v := 0.3*float64(i)/side + 0.2*float64(j)/side + 0.1*float64(c)
				if i > 8+k && i < 20+k && j > 10 && j < 22 {
					v += 0.5
				}
				data[(c*side+i)*side+j] = float32(v)
			}
		}
	}
	return jit.FromSlice(data, channels, side, side)
}

// Crop cuts a cropSide x cropSide window at (top, left).
func Crop(top, left int, img jit.Array) jit.Array {
	return img.Slice([]int{0, top, left}, []int{channels, top + cropSide, left + cropSide})
}

// FlipRows flips an image upside down.
func FlipRows(img jit.Array) jit.Array {
	c, h, w := img.Shape()[0], img.Shape()[1], img.Shape()[2]
	rows := make([]jit.Array, 0, h)
	for r := h - 1; r >= 0; r-- { // want unrolledloop
		rows = append(rows, img.Slice([]int{0, r, 0}, []int{c, r + 1, w}))
	}
	return jit.Concatenate(1, rows...)
}

// FlipCols mirrors an image left to right with an anti-diagonal matmul.
func FlipCols(img jit.Array) jit.Array {
	w := img.Shape()[2]
	i := jit.Arange(w, jit.Int32).Reshape(w, 1)
	j := jit.Arange(w, jit.Int32).Reshape(1, w)
	return img.MatMul(i.Add(j).Eq(int32(w - 1)).Astype(jit.Float32))
}

// Rotate resamples a crop with a precomputed [HW, HW] sampling matrix.
func Rotate(img, sampler jit.Array) jit.Array {
	c, h, w := img.Shape()[0], img.Shape()[1], img.Shape()[2]
	return img.Reshape(c, h*w).MatMul(sampler.Transpose()).Reshape(c, h, w)
}

// Resize resamples every channel with row and column interpolation
// matrices: ry is [outH, H], rx is [outW, W].
func Resize(img, ry, rx jit.Array) jit.Array {
	return ry.MatMul(img).MatMul(rx.Transpose())
}

// Jitter scales the brightness by a random gain.
func Jitter(img jit.Array) jit.Array {
	gain := 1 + 0.2*(rand.Float64()-0.5) // want traceeffect
	return img.Mul(gain).Min(1).Max(0)
}

// Brightness scales the brightness by gain.
func Brightness(img, gain jit.Array) jit.Array {
	return img.Mul(gain).Min(1).Max(0)
}

// Normalize standardises each channel with the dataset statistics.
func Normalize(img jit.Array) jit.Array {
	c, h, w := img.Shape()[0], img.Shape()[1], img.Shape()[2]
	out := make([]jit.Array, 0, c)
	for ch := 0; ch < c; ch++ {
		plane := img.Slice([]int{ch, 0, 0}, []int{ch + 1, h, w})
		out = append(out, plane.Sub(channelMean[ch]).Div(channelStd[ch]))
	}
	return jit.Concatenate(0, out...)
}

// interp returns the [out, in] linear interpolation matrix of a resize.
func interp(out, in int) jit.Array {
	m := make([]float32, out*in)
	for o := 0; o < out; o++ {
		src := (float64(o)+0.5)*float64(in)/float64(out) - 0.5
		src = math.Max(0, math.Min(float64(in-1), src))
		lo := int(math.Floor(src))
		hi := min(lo+1, in-1)
		f := float32(src - float64(lo))
		m[o*in+lo] += 1 - f
		m[o*in+hi] += f
	}
	return jit.FromSlice(m, out, in)
}

// rotation returns the bilinear sampling matrix that rotates an n x n image
// by angle radians about its centre.
func rotation(n int, angle float64) jit.Array {
	m := make([]float32, n*n*n*n)
	cx := float64(n-1) / 2
	s, c := math.Sin(angle), math.Cos(angle)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			y := c*(float64(i)-cx) - s*(float64(j)-cx) + cx
			x := s*(float64(i)-cx) + c*(float64(j)-cx) + cx
			y0, x0 := math.Floor(y), math.Floor(x)
			for _, d := range [][2]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
				yy, xx := int(y0+d[0]), int(x0+d[1])
				if yy < 0 || yy >= n || xx < 0 || xx >= n {
					continue
				}
				wgt := (1 - math.Abs(y-float64(yy))) * (1 - math.Abs(x-float64(xx)))
				m[(i*n+j)*n*n+yy*n+xx] += float32(wgt)
			}
		}
	}
	return jit.FromSlice(m, n*n, n*n)
}

func main() {
	rng := rand.New(rand.NewSource(3))
	images := make([]jit.Array, 6)
	for k := range images {
		images[k] = synthImage(k)
	}

	crop := jit.Jit(Crop, jit.StaticArgnums(0, 1))
	flipR, flipC := jit.Jit(FlipRows), jit.Jit(FlipCols)
	norm := jit.Jit(Normalize)
	var batch []jit.Array
	for step := 0; step < 8; step++ {
		img := images[step%len(images)]
		top, left := rng.Intn(side-cropSide+1), rng.Intn(side-cropSide+1)
		x := crop.Call(top, left, img) // want staticargs
		if rng.Intn(2) == 0 {
			x = flipC.Call(x)
		}
		batch = append(batch, norm.Call(x))
	}
	fmt.Printf("random crops: %d compiles for 8 crops; batch mean %.3f\n",
		crop.Stats().Compiles, jit.Concatenate(0, batch...).Mean().Item())

	for k, img := range images {
		x := norm.Call(crop.Call((side-cropSide)/2, (side-cropSide)/2, img))
		if k == 0 {
			fmt.Printf("centre crop 0: mean %.3f\n", x.Mean().Item())
		}
	}
	up := flipR.Call(images[0])
	fmt.Printf("vertical flip: top-left %.3f -> %.3f\n", images[0].Float32s()[0], up.Float32s()[0])

	rotate := jit.Jit(Rotate)
	centre := crop.Call(8, 8, images[1])
	for _, deg := range []float64{-7.5, -3, 2, 4.5, 9} {
		r := rotate.Call(centre, rotation(cropSide, deg*math.Pi/180))
		fmt.Printf("rotate %+5.1f deg: mean %.4f\n", deg, r.Mean().Item())
	}
	fmt.Printf("rotations compiled %d time(s)\n", rotate.Stats().Compiles)

	resize := jit.Jit(Resize)
	for step := 0; step < 6; step++ {
		out := 16 + 4*step
		small := resize.Call(images[step], interp(out, side), interp(out, side)) // want shapechurn
		fmt.Printf("multi-scale %dx%d: mean %.3f\n", out, out, small.Mean().Item())
	}
	scales := []int{22, 30}
	for step := 0; step < 12; step++ {
		out := scales[step%2]
		resize.Call(images[step%len(images)], interp(out, side), interp(out, side))
	}
	fmt.Printf("resize signatures: %d\n", len(resize.Signatures()))

	jitter := jit.Jit(Jitter)
	bright := jit.Jit(Brightness)
	for step := 0; step < 4; step++ {
		a := jitter.Call(images[step]).Mean().Item()
		gain := 1 + 0.2*(rng.Float64()-0.5)
		b := bright.Call(images[step], jit.Scalar(float32(gain))).Mean().Item()
		fmt.Printf("jitter step %d: traced gain mean %.4f, host gain mean %.4f\n", step, a, b)
	}
}
