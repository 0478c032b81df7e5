// zephtiles: a tile-based filter pipeline for a synthetic camera, written
// with Go iterators: frames and tiles are yielded lazily and each tile goes
// through a jitted kernel.
package main

import (
	"fmt"
	"iter"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const frameH, frameW, tileSize = 56, 56, 16

type Frame struct {
	Index int
	Pix   []float32 // frameH*frameW, row major
}

type Rect struct{ Y, X, H, W int }

// Camera yields n frames of a moving blob on a gradient.
func Camera(n int) iter.Seq[Frame] {
	return func(yield func(Frame) bool) {
		for i := 0; i < n; i++ {
			pix := make([]float32, frameH*frameW)
			cy, cx := 20+float64(i), 18+1.5*float64(i)
			for y := 0; y < frameH; y++ {
				for x := 0; x < frameW; x++ {
					d := (float64(y)-cy)*(float64(y)-cy) + (float64(x)-cx)*(float64(x)-cx)
					pix[y*frameW+x] = float32(0.2*float64(x)/frameW + math.Exp(-d/40))
				}
			}
			if !yield(Frame{i, pix}) {
				return
			}
		}
	}
}

// crop copies r grown by halo (edges replicated) out of f.
func crop(f Frame, r Rect, halo int) jit.Array {
	h, w := r.H+2*halo, r.W+2*halo
	out := make([]float32, 0, h*w)
	for y := r.Y - halo; y < r.Y+r.H+halo; y++ {
		for x := r.X - halo; x < r.X+r.W+halo; x++ {
			cy, cx := min(max(y, 0), frameH-1), min(max(x, 0), frameW-1)
			out = append(out, f.Pix[cy*frameW+cx])
		}
	}
	return jit.FromSlice(out, h, w)
}

// Tiles yields the tiles of a frame (edge tiles are smaller) with a halo.
func Tiles(f Frame, halo int) iter.Seq2[Rect, jit.Array] {
	return func(yield func(Rect, jit.Array) bool) {
		for y := 0; y < frameH; y += tileSize {
			for x := 0; x < frameW; x += tileSize {
				r := Rect{y, x, min(tileSize, frameH-y), min(tileSize, frameW-x)}
				if !yield(r, crop(f, r, halo)) {
					return
				}
			}
		}
	}
}

// Apply runs kernel on every tile of seq.
func Apply(seq iter.Seq2[Rect, jit.Array], kernel func(jit.Array) jit.Array) iter.Seq2[Rect, jit.Array] {
	return func(yield func(Rect, jit.Array) bool) {
		for r, t := range seq {
			if !yield(r, jit.Jit(kernel).Call(t)) {
				return
			}
		}
	}
}

// shift is the (h-2k, w-2k) window of x starting at (dy, dx).
func shift(x jit.Array, dy, dx, k int) jit.Array {
	s := x.Shape()
	return x.Slice([]int{dy, dx}, []int{dy + s[0] - 2*k, dx + s[1] - 2*k})
}

// Blur3 is a 3x3 box blur of a tile with a halo of 1.
func Blur3(x jit.Array) jit.Array {
	acc := shift(x, 0, 0, 1)
	for i := 1; i < 9; i++ {
		acc = acc.Add(shift(x, i/3, i%3, 1))
	}
	return acc.Div(9)
}

var gauss7 = []float32{0.036, 0.113, 0.216, 0.27, 0.216, 0.113, 0.036}

// Gauss7 is a separable 7x7 Gaussian on a tile with a halo of 3.
func Gauss7(x jit.Array) jit.Array {
	s := x.Shape()
	rows := jit.Zeros(jit.Float32, s[0]-6, s[1])
	for i, w := range gauss7 {
		rows = rows.Add(x.Slice([]int{i, 0}, []int{i + s[0] - 6, s[1]}).Mul(w))
	}
	out := jit.Zeros(jit.Float32, s[0]-6, s[1]-6)
	for i, w := range gauss7 {
		out = out.Add(rows.Slice([]int{0, i}, []int{s[0] - 6, i + s[1] - 6}).Mul(w))
	}
	return out
}

// Dilate7 is a 7x7 grey-level dilation (local maximum) with a halo of 3.
func Dilate7(x jit.Array) jit.Array {
	acc := shift(x, 0, 0, 3)
	for i := 1; i < 49; i++ { // want unrolledloop
		acc = acc.Max(shift(x, i/7, i%7, 3))
	}
	return acc
}

// Normalize stretches a crop to [0, 1]; flat crops are passed through.
func Normalize(x jit.Array) jit.Array {
	lo, hi := x.MinReduce(), x.MaxReduce()
	if hi.Sub(lo).Item() < 1e-3 { // want tracedbool
		return x
	}
	return x.Sub(lo).Div(hi.Sub(lo))
}

type Pipeline struct {
	Amount float64
	stats  map[string]int
}

// sharpen is an unsharp mask on a tile with a halo of 3.
func (p *Pipeline) sharpen(x jit.Array) jit.Array {
	p.stats["sharpen"]++ // want traceeffect
	return shift(x, 3, 3, 3).Mul(1 + p.Amount).Sub(Gauss7(x).Mul(p.Amount))
}

// track is where the object tracker thinks the blob is; its box breathes.
func track(i int) Rect { return Rect{12 + i, 10 + i, 14 + (i*5)%9, 16 + (i*3)%7} }

func main() {
	p := &Pipeline{Amount: 0.6, stats: map[string]int{}}
	sharpen := jit.Jit(p.sharpen)
	dilate := jit.Jit(Dilate7)
	roiStats := jit.Jit(func(x jit.Array) jit.Array {
		jit.DebugPrint("roi mean %v", x.Mean())
		return x.Pow(2).Mean().Sqrt()
	})
	tiles, energy := 0, 0.0
	for f := range Camera(6) {
		// Preview: a blur per tile through the generic adapter.
		for _, t := range Apply(Tiles(f, 1), Blur3) {
			energy += t.Mean().Item()
		}
		for r, t := range Tiles(f, 3) {
			s := sharpen.Call(t)
			d := dilate.Call(t)
			tiles++
			if f.Index == 5 && r.Y == 16 && r.X == 16 {
				fmt.Printf("frame %d tile %v: sharp max %.3f dilated min %.3f\n", f.Index, r, s.MaxReduce().Item(), d.MinReduce().Item())
			}
		}
		// Gain per frame from auto-exposure, applied per tile.
		gain := 1 + 0.05*float64(f.Index%2)
		for _, t := range Tiles(f, 3) {
			k := jit.Jit(func(x jit.Array) jit.Array { return Gauss7(x).Mul(gain) }) // want staticargs
			energy += k.Call(t).Sum().Item() / 1000
		}
		// Region of interest from the tracker: a new box every frame.
		roi := crop(f, track(f.Index), 0)
		fmt.Printf("frame %d roi %v rms %.3f\n", f.Index, roi.Shape(), roiStats.Call(roi).Item()) // want shapechurn
	}

	norm := jit.Jit(Normalize)
	flat := crop(Frame{Pix: make([]float32, frameH*frameW)}, Rect{0, 0, 8, 8}, 0)
	if lo, hi := flat.MinReduce().Item(), flat.MaxReduce().Item(); hi-lo < 1e-3 {
		fmt.Println("flat crop skipped on the host")
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("normalize kernel:", r.(*jit.Error).Kind)
			}
		}()
		norm.Call(flat)
	}()
	fmt.Printf("tiles %d, energy %.3f, sharpen traced %d times, compiles: sharpen %d dilate %d\n",
		tiles, energy, p.stats["sharpen"], sharpen.Stats().Compiles, dilate.Stats().Compiles)
}
