// Command curriculumseq trains a stacked RNN to predict the next value of
// noisy sine waves with a curriculum: the sequence length grows on a
// schedule, first one step at a time, then in padded buckets.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"

	"corpus/curriculumseq/seqnn"

	"github.com/jitlint/jitlint/jit"
)

const (
	hidden     = 8
	evalWindow = 32
)

var bucketLens = []int{32, 64}

var seenLengths = map[int]bool{}

func sgd(n, g seqnn.Net, lr float64) seqnn.Net {
	out := seqnn.Net{Head: n.Head.Sub(g.Head.Mul(lr))}
	for k, c := range n.Cells {
		gc := g.Cells[k]
		out.Cells = append(out.Cells, seqnn.Cell{Wx: c.Wx.Sub(gc.Wx.Mul(lr)), Wh: c.Wh.Sub(gc.Wh.Mul(lr)), B: c.B.Sub(gc.B.Mul(lr))})
	}
	return out
}

func shortLoss(n seqnn.Net, xs, ys jit.Array) jit.Array {
	seenLengths[xs.Shape()[0]] = true // want traceeffect
	d := seqnn.RunUnrolled(n, xs).Sub(ys)
	return d.Mul(d).Mean()
}

func maskedLoss(n seqnn.Net, xs, ys, mask jit.Array) jit.Array {
	d := seqnn.RunScan(n, xs).Sub(ys)
	return d.Mul(d).Mul(mask).Sum().Div(mask.Sum().Max(1))
}

var (
	shortGrad  = jit.ValueAndGrad[func(seqnn.Net, jit.Array, jit.Array) (jit.Array, seqnn.Net)](shortLoss)
	maskedGrad = jit.ValueAndGrad[func(seqnn.Net, jit.Array, jit.Array, jit.Array) (jit.Array, seqnn.Net)](maskedLoss)
)

func shortStep(n seqnn.Net, xs, ys jit.Array) (seqnn.Net, jit.Array) {
	l, g := shortGrad(n, xs, ys)
	return sgd(n, g, 0.05), l
}

// bucketStep trains on a padded sequence; stage picks the learning rate.
func bucketStep(n seqnn.Net, xs, ys, mask jit.Array, stage int) (seqnn.Net, jit.Array) {
	l, g := maskedGrad(n, xs, ys, mask)
	jit.DebugPrint("  [stage %v] masked loss %v\n", stage, l)
	lr := []float64{0.05, 0.03, 0.02}[stage]
	return sgd(n, g, lr), l
}

// rollout feeds the model's own predictions back for horizon steps.
func rollout(n seqnn.Net, ctx jit.Array, horizon int) jit.Array {
	T := ctx.Shape()[0]
	window := ctx
	var preds []jit.Array
	for k := 0; k < horizon; k++ {
		p := seqnn.RunScan(n, window).Slice([]int{T - 1}, []int{T})
		preds = append(preds, p)
		window = jit.Concatenate(0, window.Slice([]int{1, 0}, []int{T, 1}), p.Reshape(1, 1))
	}
	return jit.Concatenate(0, preds...)
}

// longContextEval scores a long sequence with the unrolled reference net,
// weighting late errors more.
func longContextEval(n seqnn.Net, xs, ys jit.Array) (jit.Array, jit.Array) {
	preds := seqnn.RunUnrolled(n, xs) // want unrolledloop
	T := preds.Shape()[0]
	weighted := jit.Zeros(jit.Float32)
	for t := 0; t < T; t++ { // want unrolledloop
		e := preds.Slice([]int{t}, []int{t + 1}).Sub(ys.Slice([]int{t}, []int{t + 1}))
		weighted = weighted.Mul(0.9).Add(e.Mul(e).Sum())
	}
	tail := jit.Zeros(jit.Float32)
	for t := 0; t < evalWindow; t++ {
		e := preds.Slice([]int{T - 1 - t}, []int{T - t}).Sub(ys.Slice([]int{T - 1 - t}, []int{T - t}))
		tail = tail.Add(e.Abs().Sum())
	}
	return weighted, tail.Div(evalWindow)
}

// wave makes a noisy sine of length L: inputs [L,1] and next-step targets [L].
func wave(rng *rand.Rand, L int) ([]float32, []float32) {
	w, phi := 0.2+0.1*rng.Float64(), rng.Float64()*2*math.Pi
	xs, ys := make([]float32, L), make([]float32, L)
	for t := 0; t < L; t++ {
		xs[t] = float32(math.Sin(w*float64(t)+phi) + rng.NormFloat64()*0.02)
		ys[t] = float32(math.Sin(w*float64(t+1) + phi))
	}
	return xs, ys
}

func padded(xs, ys []float32, size int) (jit.Array, jit.Array, jit.Array) {
	px, py, m := make([]float32, size), make([]float32, size), make([]float32, size)
	copy(px, xs)
	copy(py, ys)
	for t := range xs {
		m[t] = 1
	}
	return jit.FromSlice(px, size, 1), jit.FromSlice(py), jit.FromSlice(m)
}

func bucket(L int) int {
	for _, b := range bucketLens {
		if L <= b {
			return b
		}
	}
	return L
}

func main() {
	rng := rand.New(rand.NewSource(11))
	net := seqnn.New(rng, 1, hidden, 2)

	// Phase 1: the length grows by one every step, unpadded.
	short := jit.Jit(shortStep)
	for step := 0; step < 10; step++ {
		L := 4 + step
		xs, ys := wave(rng, L)
		var l jit.Array
		net, l = short.Call(net, jit.FromSlice(xs, L, 1), jit.FromSlice(ys)) // want shapechurn
		if step%3 == 0 {
			fmt.Printf("phase1 step %d len %d loss %.4f\n", step, L, l.Item())
		}
	}

	// Phase 2: longer sequences, padded to buckets; the stage changes every 4 steps.
	bucketed := jit.Jit(bucketStep, jit.StaticArgnums(4))
	for step := 0; step < 12; step++ {
		L := 18 + 4*step
		xs, ys := wave(rng, L)
		px, py, m := padded(xs, ys, bucket(L))
		net, _ = bucketed.Call(net, px, py, m, step/4)
	}

	// Forecast horizons of growing length from one context window.
	fc := jit.Jit(rollout, jit.StaticArgnums(2))
	ctxX, _ := wave(rng, 16)
	for horizon := 4; horizon <= 24; horizon += 4 {
		out := fc.Call(net, jit.FromSlice(ctxX, 16, 1), horizon) // want staticargs
		vals := out.Float32s()
		fmt.Printf("horizon %2d: last forecast %.3f\n", horizon, vals[len(vals)-1])
	}

	xs, ys := wave(rng, 40)
	weighted, tail := jit.Jit(longContextEval).Call(net, jit.FromSlice(xs, 40, 1), jit.FromSlice(ys))
	fmt.Printf("long context: weighted %.4f  tail MAE %.4f\n", weighted.Item(), tail.Item())

	lens := make([]int, 0, len(seenLengths))
	for L := range seenLengths {
		lens = append(lens, L)
	}
	sort.Ints(lens)
	fmt.Println("lengths seen by shortLoss:", lens, "bucketed compiles:", bucketed.Stats().Compiles)
}
