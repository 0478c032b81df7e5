// Command filterbank ports a NumPy/SciPy feature-extraction script: a batch
// of grayscale scans of different sizes is padded into size buckets, run
// through a small filter bank (Sobel, Laplacian, Gaussian, local contrast),
// blurred for background estimation and resized to thumbnails.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"

	"corpus/vision"

	"github.com/jitlint/jitlint/jit"
)

const (
	batchSize = 4
	thumbSize = 24
)

var sizeBuckets = []int{32, 64}

// scan is one input image, row-major.
type scan struct {
	id   int
	h, w int
	pix  []float32
}

// Features is the filter-bank output for one batch.
type Features struct {
	Magnitude jit.Array // Sobel gradient magnitude
	Laplace   jit.Array // |Laplacian|
	Smooth    jit.Array // 3x3 Gaussian
	Contrast  jit.Array // x - local 5x5 mean
}

var (
	sobelX, sobelY = vision.Sobel()
	laplace        = vision.Laplacian()
	gauss3         = vision.Gaussian(3, 0.8)
	box5           = vision.Box(5)
	gauss7         = vision.Gaussian(7, 2.0)
)

// EdgeFeatures runs the filter bank over x [B, S, S].
func EdgeFeatures(x jit.Array) Features {
	gx := vision.Conv2DSame(x, sobelX)
	gy := vision.Conv2DSame(x, sobelY)
	mag := gx.Mul(gx).Add(gy.Mul(gy)).Add(1e-6).Sqrt()
	lap := vision.Conv2DSame(x, laplace).Abs()
	smooth := vision.Conv2DSame(x, gauss3)
	contrast := x.Sub(vision.Conv2DSame(x, box5))
	return Features{Magnitude: mag, Laplace: lap, Smooth: smooth, Contrast: contrast}
}

// BackgroundEstimate blurs the batch strongly and subtracts it, a cheap
// flat-field correction (scipy.ndimage.gaussian_filter(x, 2, truncate=1.5)).
func BackgroundEstimate(x jit.Array) jit.Array {
	bg := vision.Conv2DSame(x, gauss7) // want unrolledloop
	return x.Sub(bg).Max(0)
}

// Thumbnail resizes x [B, S, S] with the given interpolation matrices and
// rescales every image to [0, 1].
func Thumbnail(x, rh, rw jit.Array) jit.Array {
	t := vision.Resize(x, rh, rw)
	lo := t.MinReduce(1, 2).Reshape(-1, 1, 1)
	hi := t.MaxReduce(1, 2).Reshape(-1, 1, 1)
	return t.Sub(lo).Div(hi.Sub(lo).Add(1e-6))
}

// synthScan draws a scan of blobs and stripes on a noisy background.
func synthScan(id int, rng *rand.Rand) scan {
	h := 20 + rng.Intn(44)
	w := 20 + rng.Intn(44)
	pix := make([]float32, h*w)
	cy, cx := rng.Float64()*float64(h), rng.Float64()*float64(w)
	rad := 3 + rng.Float64()*6
	period := 4 + rng.Float64()*8
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			d := math.Hypot(float64(r)-cy, float64(c)-cx)
			v := 0.2 + 0.1*math.Sin(2*math.Pi*float64(c)/period)
			if d < rad {
				v += 0.6
			}
			v += 0.05 * rng.NormFloat64()
			pix[r*w+c] = float32(v)
		}
	}
	return scan{id: id, h: h, w: w, pix: pix}
}

// batchOf pads scans into a [batchSize, size, size] array; missing slots
// stay blank.
func batchOf(scans []scan, size int) jit.Array {
	data := make([]float32, 0, batchSize*size*size)
	for i := 0; i < batchSize; i++ {
		if i < len(scans) {
			s := scans[i]
			data = append(data, vision.PadImage(s.pix, s.h, s.w, size, 0)...)
		} else {
			data = append(data, make([]float32, size*size)...)
		}
	}
	return jit.FromSlice(data, batchSize, size, size)
}

// validMean averages plane b of a [B, S, S] result over the scan's real
// h x w region.
func validMean(vals []float32, b, size, h, w int) float64 {
	var sum float64
	off := b * size * size
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			sum += float64(vals[off+r*size+c])
		}
	}
	return sum / float64(h*w)
}

func main() {
	rng := rand.New(rand.NewSource(20240611))
	var scans []scan
	for i := 0; i < 14; i++ {
		scans = append(scans, synthScan(i, rng))
	}

	// Group scans by size bucket so every batch has one of a few shapes.
	byBucket := map[int][]scan{}
	for _, s := range scans {
		b := vision.Bucket(max(s.h, s.w), sizeBuckets)
		byBucket[b] = append(byBucket[b], s)
	}
	keys := make([]int, 0, len(byBucket))
	for k := range byBucket {
		keys = append(keys, k)
	}
	sort.Ints(keys)

	features := jit.Jit(EdgeFeatures)
	background := jit.Jit(BackgroundEstimate)
	thumb := jit.Jit(Thumbnail)
	rw := map[int]jit.Array{}
	for _, size := range sizeBuckets {
		rw[size] = vision.ResizeMatrix(size, thumbSize)
	}

	type row struct {
		id            int
		h, w          int
		edge, lap, fg float64
		thumbMean     float64
	}
	var rows []row
	calls := 0
	for _, size := range keys {
		group := byBucket[size]
		for start := 0; start < len(group); start += batchSize {
			end := min(start+batchSize, len(group))
			chunk := group[start:end]
			x := batchOf(chunk, size)

			f := features.Call(x)
			fg := background.Call(x)
			th := thumb.Call(f.Smooth, rw[size], rw[size])
			calls++

			mag, lap, fgv, tv := f.Magnitude.Float32s(), f.Laplace.Float32s(), fg.Float32s(), th.Float32s()
			for b, s := range chunk {
				var tm float64
				for _, v := range tv[b*thumbSize*thumbSize : (b+1)*thumbSize*thumbSize] {
					tm += float64(v)
				}
				rows = append(rows, row{
					id: s.id, h: s.h, w: s.w,
					edge:      validMean(mag, b, size, s.h, s.w),
					lap:       validMean(lap, b, size, s.h, s.w),
					fg:        validMean(fgv, b, size, s.h, s.w),
					thumbMean: tm / float64(thumbSize*thumbSize),
				})
			}
		}
	}

	sort.Slice(rows, func(i, j int) bool { return rows[i].id < rows[j].id })
	fmt.Println(" id    size    |grad|   |lap|   fg    thumb")
	for _, r := range rows {
		fmt.Printf("%3d  %2dx%-2d  %7.4f %7.4f %6.4f %6.3f\n", r.id, r.h, r.w, r.edge, r.lap, r.fg, r.thumbMean)
	}

	// A second pass over the 64 bucket with a fresh wrapper of the same
	// function: wrappers of one named function share their compiled code.
	if group, ok := byBucket[64]; ok {
		x := batchOf(group, 64)
		again := jit.Jit(EdgeFeatures).Call(x)
		fmt.Printf("re-run 64 bucket: mean |grad| %.4f\n", again.Magnitude.Mean().Item())
	}

	fs, bs, ts := features.Stats(), background.Stats(), thumb.Stats()
	fmt.Printf("%d batches: filter bank %d compiles, background %d compiles, thumbnail %d compiles\n",
		calls, fs.Compiles, bs.Compiles, ts.Compiles)
	fmt.Println("filter bank signatures:", features.Signatures())
}
