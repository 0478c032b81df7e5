// Command nms is the post-processing half of a CenterNet-style detector,
// ported from NumPy: peaks of a keypoint heatmap (3x3 max-pool
// suppression), top-k candidate boxes, greedy non-max suppression and a
// connected-components pass that groups the foreground into blobs.
package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"sort"

	"corpus/vision"

	"github.com/jitlint/jitlint/jit"
)

const (
	side        = 48
	maxDets     = 16
	scoreThresh = 0.25
	fgThresh    = 0.3
)

// Peaks keeps heatmap values that are local 3x3 maxima above scoreThresh.
func Peaks(heat jit.Array) jit.Array {
	local := vision.MaxPool3x3Same(heat)
	isPeak := heat.Ge(local).And(heat.Gt(scoreThresh))
	return jit.Where(isPeak, heat, 0)
}

// iou returns the IoU of every box [K, 4] (y0, x0, y1, x1) with box [4].
func iou(boxes, box jit.Array) jit.Array {
	k := boxes.Shape()[0]
	col := func(i int) jit.Array { return boxes.Slice([]int{0, i}, []int{k, i + 1}).Reshape(k) }
	at := func(i int) jit.Array { return box.Slice([]int{i}, []int{i + 1}).Reshape() }
	y0, x0, y1, x1 := col(0), col(1), col(2), col(3)
	by0, bx0, by1, bx1 := at(0), at(1), at(2), at(3)
	ih := y1.Min(by1).Sub(y0.Max(by0)).Max(0)
	iw := x1.Min(bx1).Sub(x0.Max(bx0)).Max(0)
	inter := ih.Mul(iw)
	area := y1.Sub(y0).Mul(x1.Sub(x0))
	barea := by1.Sub(by0).Mul(bx1.Sub(bx0))
	return inter.Div(area.Add(barea).Sub(inter).Add(1e-6))
}

// NMSGreedy is the direct port of
//
//	while scores.max() > thresh: i = scores.argmax(); keep[i] = 1; scores[iou(boxes, boxes[i]) > 0.5] = 0
func NMSGreedy(boxes, scores jit.Array) jit.Array {
	keep := jit.Zeros(jit.Float32, maxDets)
	for scores.MaxReduce().Gt(scoreThresh).Bool() { // want tracedbool
		pick := scores.Eq(scores.MaxReduce()).Astype(jit.Float32)
		sel := boxes.Mul(pick.Reshape(maxDets, 1)).Sum(0)
		keep = keep.Add(pick)
		scores = jit.Where(iou(boxes, sel).Gt(0.5).Or(pick.Gt(0)), 0, scores)
	}
	return keep
}

// nmsState is the carry of the while loop.
type nmsState struct {
	Scores jit.Array // remaining candidates, 0 once suppressed
	Keep   jit.Array // 1 for kept boxes
}

// NMS is greedy NMS as a while loop: every iteration keeps the best
// remaining box and suppresses those overlapping it by more than iouThresh.
func NMS(boxes, scores jit.Array, iouThresh float64) jit.Array {
	final := jit.WhileLoop(
		func(s nmsState) jit.Array { return s.Scores.MaxReduce().Gt(scoreThresh) },
		func(s nmsState) nmsState {
			pick := s.Scores.Eq(s.Scores.MaxReduce()).Astype(jit.Float32)
			sel := boxes.Mul(pick.Reshape(maxDets, 1)).Sum(0)
			drop := iou(boxes, sel).Gt(iouThresh).Or(pick.Gt(0))
			return nmsState{Scores: jit.Where(drop, 0, s.Scores), Keep: s.Keep.Add(pick)}
		},
		nmsState{Scores: scores, Keep: jit.Zeros(jit.Float32, maxDets)})
	return final.Keep
}

// ccState carries component labels and whether the last sweep changed any.
type ccState struct {
	Labels  jit.Array // [1, H, W] float label ids, 0 for background
	Changed jit.Array // bool scalar
}

// ConnectedComponents labels 4-connected foreground blobs by propagating
// the largest label id until nothing changes (scipy.ndimage.label).
func ConnectedComponents(heat jit.Array) jit.Array {
	fg := heat.Gt(fgThresh).Astype(jit.Float32)
	ids := jit.Arange(side*side, jit.Float32).Add(1).Reshape(1, side, side)
	shift := func(x jit.Array, dy, dx int) jit.Array {
		p := vision.PadZeros(x, 1, 1, 1, 1)
		return p.Slice([]int{0, 1 + dy, 1 + dx}, []int{1, 1 + dy + side, 1 + dx + side})
	}
	final := jit.WhileLoop(
		func(s ccState) jit.Array { return s.Changed },
		func(s ccState) ccState {
			l := s.Labels
			n := l.Max(shift(l, -1, 0)).Max(shift(l, 1, 0)).Max(shift(l, 0, -1)).Max(shift(l, 0, 1)).Mul(fg)
			return ccState{Labels: n, Changed: n.Ne(l).Astype(jit.Float32).Sum().Gt(0)}
		},
		ccState{Labels: ids.Mul(fg), Changed: jit.Scalar(true)})
	return final.Labels
}

type blob struct{ y, x, sigma, amp float64 }

// synthHeat renders Gaussian blobs plus noise into a [1, side, side] map.
func synthHeat(rng *rand.Rand) (jit.Array, []blob) {
	var blobs []blob
	for i := 0; i < 5; i++ {
		blobs = append(blobs, blob{4 + rng.Float64()*40, 4 + rng.Float64()*40, 1.5 + rng.Float64()*2.5, 0.4 + 0.6*rng.Float64()})
	}
	pix := make([]float32, side*side)
	for r := 0; r < side; r++ {
		for c := 0; c < side; c++ {
			v := 0.02 * rng.NormFloat64()
			for _, b := range blobs {
				d2 := (float64(r)-b.y)*(float64(r)-b.y) + (float64(c)-b.x)*(float64(c)-b.x)
				v += b.amp * math.Exp(-d2/(2*b.sigma*b.sigma))
			}
			pix[r*side+c] = float32(v)
		}
	}
	return jit.FromSlice(pix, 1, side, side), blobs
}

// topK reads the peak map on the host and builds up to maxDets boxes of a
// fixed half-size, padding the rest with zero-score boxes.
func topK(peaks jit.Array) (boxes, scores jit.Array, n int) {
	vals := peaks.Float32s()
	idx := make([]int, 0)
	for i, v := range vals {
		if v > 0 {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return vals[idx[a]] > vals[idx[b]] })
	n = min(len(idx), maxDets)
	bx := make([]float32, maxDets*4)
	sc := make([]float32, maxDets)
	for k := 0; k < n; k++ {
		y, x := float32(idx[k]/side), float32(idx[k]%side)
		copy(bx[k*4:], []float32{y - 5, x - 5, y + 5, x + 5})
		sc[k] = vals[idx[k]]
	}
	return jit.FromSlice(bx, maxDets, 4), jit.FromSlice(sc), n
}

// countLabels counts distinct nonzero labels.
func countLabels(labels jit.Array) int {
	seen := map[float32]bool{}
	for _, v := range labels.Float32s() {
		if v > 0 {
			seen[v] = true
		}
	}
	return len(seen)
}

func keptIndices(keep jit.Array) []int {
	var out []int
	for i, v := range keep.Float32s() {
		if v > 0.5 {
			out = append(out, i)
		}
	}
	return out
}

func main() {
	rng := rand.New(rand.NewSource(5))
	peaks := jit.Jit(Peaks)
	greedy := jit.Jit(NMSGreedy)
	nms := jit.Jit(NMS, jit.StaticArgnums(2))
	cc := jit.Jit(ConnectedComponents)

	for img := 0; img < 4; img++ {
		heat, blobs := synthHeat(rng)
		p := peaks.Call(heat)
		boxes, scores, n := topK(p)
		fmt.Printf("image %d: %d blobs drawn, %d peaks above %.2f\n", img, len(blobs), n, scoreThresh)

		if img == 0 {
			func() {
				defer func() {
					if r := recover(); r != nil {
						var e *jit.Error
						if err, ok := r.(error); ok && errors.As(err, &e) {
							fmt.Printf("  greedy port failed to trace: %s\n", e.Kind)
							return
						}
						panic(r)
					}
				}()
				fmt.Println("  greedy keep:", keptIndices(greedy.Call(boxes, scores)))
			}()
		}

		// Detection uses 0.5; the crowd-counting head re-runs with a looser
		// overlap on alternate images.
		thr := 0.5
		if img%2 == 1 {
			thr = 0.3
		}
		keep := nms.Call(boxes, scores, thr)
		fmt.Printf("  nms(iou>%.1f) keeps %v\n", thr, keptIndices(keep))

		labels := cc.Call(heat)
		fmt.Printf("  connected components above %.1f: %d\n", fgThresh, countLabels(labels))
	}

	fmt.Printf("compiles: peaks %d, nms %d %v, components %d\n",
		peaks.Stats().Compiles, nms.Stats().Compiles, nms.Signatures(), cc.Stats().Compiles)
}
