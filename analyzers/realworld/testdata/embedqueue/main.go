// Command embedqueue is a queue consumer that embeds documents. Producers
// push jobs (a document as a matrix of token feature rows) onto a channel; a
// worker goroutine drains them, packs each document into a fixed block of
// rows, pools a projection of it with weights that decay along the document,
// and reports the embedding's norm on a results channel. Documents are also
// embedded once more through the legacy single-document path for comparison.
package main

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

const (
	features = 8
	blockLen = 40
	embedDim = 6
)

type job struct {
	id   int
	rows jit.Array // [n, features]
}

type result struct {
	id   int
	norm float64
}

type metrics struct {
	builds atomic.Int64
	jobs   atomic.Int64
}

func projection() jit.Array {
	w := make([]float32, features*embedDim)
	for i := range w {
		w[i] = float32(math.Cos(float64(i) * 0.7))
	}
	return jit.FromSlice(w, features, embedDim)
}

// rowsOf returns how many real token rows a document has.
func rowsOf(doc jit.Array) int { return doc.Shape()[0] }

// pack pads a document with zero rows up to blockLen and returns the mask.
func pack(doc jit.Array) (jit.Array, jit.Array) {
	n := rowsOf(doc)
	padded := jit.Concatenate(0, doc, jit.Zeros(jit.Float32, blockLen-n, features))
	mask := jit.Concatenate(0, jit.Ones(jit.Float32, n, 1), jit.Zeros(jit.Float32, blockLen-n, 1))
	return padded, mask
}

// decay down-weights later rows of h: row i is scaled by 0.98^i.
func decay(h jit.Array) jit.Array {
	rows, cols := h.Shape()[0], h.Shape()[1]
	out := make([]jit.Array, rows)
	for i := 0; i < rows; i++ { // want unrolledloop
		out[i] = h.Slice([]int{i, 0}, []int{i + 1, cols}).Mul(math.Pow(0.98, float64(i)))
	}
	return jit.Concatenate(0, out...)
}

func embedder(m *metrics, w jit.Array) func(x, mask jit.Array) jit.Array {
	return func(x, mask jit.Array) jit.Array {
		m.builds.Add(1) // want traceeffect
		h := decay(x.MatMul(w).Tanh().Mul(mask))
		return h.Sum(0).Div(mask.Sum().Max(1))
	}
}

func document(id int) jit.Array {
	n := 3 + (id*11)%(blockLen-3)
	xs := make([]float32, n*features)
	for i := range xs {
		xs[i] = float32(math.Sin(float64(i+id) / 3))
	}
	return jit.FromSlice(xs, n, features)
}

func worker(m *metrics, embed *jit.Func[func(jit.Array, jit.Array) jit.Array], jobs <-chan job, out chan<- result) {
	for j := range jobs {
		x, mask := pack(j.rows)
		e := embed.Call(x, mask)
		m.jobs.Add(1)
		out <- result{id: j.id, norm: e.Pow(2).Sum().Sqrt().Item()}
	}
	close(out)
}

func main() {
	m := &metrics{}
	w := projection()
	embed := jit.Jit(embedder(m, w))

	jobs := make(chan job)
	out := make(chan result)
	go worker(m, embed, jobs, out)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for id := 0; id < 10; id++ {
			jobs <- job{id: id, rows: document(id)}
		}
		close(jobs)
	}()
	for r := range out {
		fmt.Printf("doc %d: |e|=%.4f\n", r.id, r.norm)
	}
	wg.Wait()
	fmt.Printf("pooled path: %d jobs, compiles=%d\n", m.jobs.Load(), embed.Stats().Compiles)

	legacy := jit.Jit(embedder(m, w))
	for id := 0; id < 6; id++ {
		doc := document(id)
		e := legacy.Call(doc, jit.Ones(jit.Float32, rowsOf(doc), 1)) // want shapechurn
		fmt.Printf("legacy doc %d: |e|=%.4f\n", id, e.Pow(2).Sum().Sqrt().Item())
	}
	fmt.Printf("legacy compiles=%d, builds=%d\n", legacy.Stats().Compiles, m.builds.Load())
}
