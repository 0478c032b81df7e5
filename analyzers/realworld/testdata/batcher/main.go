// Command batcher collects scoring requests from a channel into dynamic
// batches and runs a small MLP on each batch, comparing batching strategies:
// exact-size batches, batches padded to the maximum size, and batches padded
// to power-of-two buckets.
package main

import (
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

const (
	inDim    = 8
	hidden   = 16
	maxBatch = 8
)

// MLP is a two-layer perceptron with a calibration spline on its output.
type MLP struct {
	W1, B1, W2 jit.Array
	Knots      [40]float32 `jit:"static"`
	Temp       float64     `jit:"static"`
}

// Request is one example waiting for a score.
type Request struct {
	ID    int
	X     []float32
	Reply chan float32
}

var traceLog []string

func (p MLP) hiddenLayer(x jit.Array) jit.Array {
	return jit.Relu(x.MatMul(p.W1).Add(p.B1))
}

// calibrate applies a monotone piecewise-linear spline elementwise.
func calibrate(z jit.Array, knots []float32) jit.Array {
	out := z.Logistic()
	for k := 1; k < len(knots); k++ { // want unrolledloop
		out = out.Add(z.Sub(knots[k]).Max(0).Mul(0.01))
	}
	return out
}

// Forward scores a batch x of shape [B, inDim].
func Forward(p MLP, x jit.Array) jit.Array {
	traceLog = append(traceLog, fmt.Sprintf("Forward%v", x.Shape())) // want traceeffect
	z := p.hiddenLayer(x).MatMul(p.W2).Div(p.Temp)
	return calibrate(z, p.Knots[:])
}

// ForwardValid scores a padded batch, zeroing the rows past n.
func ForwardValid(n int, p MLP, x jit.Array) jit.Array {
	z := p.hiddenLayer(x).MatMul(p.W2).Div(p.Temp)
	rows := make([]jit.Array, 0, maxBatch)
	for r := 0; r < x.Shape()[0]; r++ {
		row := z.Slice([]int{r}, []int{r + 1})
		if r >= n {
			row = row.Mul(0)
		}
		rows = append(rows, row)
	}
	return calibrate(jit.Concatenate(0, rows...), p.Knots[:4])
}

func initMLP() MLP {
	m := func(r, c int, s float64) jit.Array {
		d := make([]float32, r*c)
		for i := range d {
			d[i] = float32(math.Sin(s+float64(i)*0.61)) / float32(math.Sqrt(float64(r)))
		}
		if c == 1 {
			return jit.FromSlice(d, r)
		}
		return jit.FromSlice(d, r, c)
	}
	var knots [40]float32
	for i := range knots {
		knots[i] = -2 + 4*float32(i)/40
	}
	return MLP{W1: m(inDim, hidden, 0.3), B1: jit.Zeros(jit.Float32, hidden), W2: m(hidden, 1, 1.1), Knots: knots, Temp: 1.5}
}

// stack builds a [rows, inDim] batch from the requests, zero-padded.
func stack(batch []*Request, rows int) jit.Array {
	data := make([]float32, rows*inDim)
	for i, r := range batch {
		copy(data[i*inDim:], r.X)
	}
	return jit.FromSlice(data, rows, inDim)
}

func bucket(n int) int {
	b := 1
	for b < n {
		b *= 2
	}
	return b
}

type metrics struct {
	batches    int
	batchSizes []int
}

// collect reads requests from in and hands each batch to run: a batch is
// closed at maxBatch requests or when a nil flush marker arrives.
func collect(in <-chan *Request, run func([]*Request), m *metrics) {
	var pending []*Request
	flush := func() {
		if len(pending) == 0 {
			return
		}
		m.batches++
		m.batchSizes = append(m.batchSizes, len(pending))
		run(pending)
		pending = nil
	}
	for r := range in {
		if r == nil {
			flush()
			continue
		}
		pending = append(pending, r)
		if len(pending) == maxBatch {
			flush()
		}
	}
	flush()
}

func reply(batch []*Request, scores []float32) {
	for i, r := range batch {
		r.Reply <- scores[i]
	}
}

// serve sends bursts of requests through a batcher and returns the scores
// in request order.
func serve(bursts []int, run func([]*Request)) ([]float32, metrics) {
	in := make(chan *Request)
	var m metrics
	done := make(chan struct{})
	go func() {
		collect(in, run, &m)
		close(done)
	}()
	var reqs []*Request
	var wg sync.WaitGroup
	results := map[int]float32{}
	var mu sync.Mutex
	id := 0
	for _, n := range bursts {
		for j := 0; j < n; j++ {
			x := make([]float32, inDim)
			for k := range x {
				x[k] = float32(math.Cos(float64(id*inDim+k) * 0.3))
			}
			r := &Request{ID: id, X: x, Reply: make(chan float32, 1)}
			reqs = append(reqs, r)
			wg.Add(1)
			go func(r *Request) {
				defer wg.Done()
				s := <-r.Reply
				mu.Lock()
				results[r.ID] = s
				mu.Unlock()
			}(r)
			in <- r
			id++
		}
		in <- nil
	}
	close(in)
	<-done
	wg.Wait()
	out := make([]float32, len(reqs))
	for _, r := range reqs {
		out[r.ID] = results[r.ID]
	}
	return out, m
}

func repeat(xs []int, n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, xs...)
	}
	return out
}

func main() {
	p := initMLP()
	fwd := jit.Jit(Forward)
	fwdValid := jit.Jit(ForwardValid, jit.StaticArgnums(0))
	bursts := []int{3, 5, 2, 7, 6, 1, 4, 8}

	exact, m1 := serve(bursts, func(b []*Request) {
		y := fwd.Call(p, stack(b, len(b))) // want shapechurn
		reply(b, y.Float32s())
	})
	fmt.Printf("exact batches %v: %d compiles\n", m1.batchSizes, fwd.Stats().Compiles)

	before := fwd.Stats().Compiles
	padded, m2 := serve(repeat(bursts, 3), func(b []*Request) {
		y := fwd.Call(p, stack(b, maxBatch))
		reply(b, y.Float32s()[:len(b)])
	})
	fmt.Printf("padded to %d: %d batches, %d new compiles\n", maxBatch, m2.batches, fwd.Stats().Compiles-before)

	before = fwd.Stats().Compiles
	bucketed, m3 := serve(repeat(bursts, 4), func(b []*Request) {
		y := fwd.Call(p, stack(b, bucket(len(b))))
		reply(b, y.Float32s()[:len(b)])
	})
	fmt.Printf("bucketed: %d batches, %d new compiles\n", m3.batches, fwd.Stats().Compiles-before)

	valid, _ := serve(bursts, func(b []*Request) {
		y := fwdValid.Call(len(b), p, stack(b, maxBatch)) // want staticargs
		reply(b, y.Float32s()[:len(b)])
	})
	fmt.Printf("padded with static count: %d compiles\n", fwdValid.Stats().Compiles)

	maxDiff := 0.0
	for i := range exact {
		maxDiff = math.Max(maxDiff, math.Abs(float64(exact[i]-padded[i])))
		maxDiff = math.Max(maxDiff, math.Abs(float64(exact[i]-bucketed[i])))
	}
	sorted := append([]float32(nil), valid...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	fmt.Printf("max |exact - padded/bucketed| = %.2g; median (4 knots) %.4f\n", maxDiff, sorted[len(sorted)/2])
	fmt.Printf("Forward traced for: %v\n", traceLog)
}
