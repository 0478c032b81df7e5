// Command scoringpool serves a queue of ranking requests with a pool of
// worker goroutines. Each request carries a variable number of candidate
// feature vectors; a worker pads them to a size bucket, scores them with a
// jitted two-layer model, reranks the real candidates with a pairwise
// diversity penalty, and sends the winner back over a results channel. The
// main goroutine collects the answers and prints a summary.
package main

import (
	"fmt"
	"log"
	"math/rand"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

const features = 8

type model struct {
	W1, B1, W2 jit.Array
}

type request struct {
	id    int
	cands [][]float32
}

type answer struct {
	id, best, worker int
	score            float32
}

var scored atomic.Int64

func newModel(r *rand.Rand) model {
	w1 := make([]float32, features*16)
	for i := range w1 {
		w1[i] = float32(r.NormFloat64() * 0.3)
	}
	w2 := make([]float32, 16)
	for i := range w2 {
		w2[i] = float32(r.NormFloat64() * 0.3)
	}
	return model{jit.FromSlice(w1, features, 16), jit.Zeros(jit.Float32, 16), jit.FromSlice(w2)}
}

func score(m model, x, mask jit.Array) jit.Array {
	log.Printf("compiling scorer for %v", x.Shape()) // want traceeffect
	h := jit.Relu(x.MatMul(m.W1).Add(m.B1))
	s := h.MatMul(m.W2)
	return jit.Where(mask.Gt(0), s, -1e9)
}

func rerank(x, s jit.Array) jit.Array {
	scored.Add(int64(x.Shape()[0])) // want traceeffect
	n := x.Div(x.Mul(x).Sum(1).Sqrt().Reshape(-1, 1).Add(1e-6))
	sim := n.MatMul(n.Transpose())
	return s.Sub(sim.Sum(1).Mul(0.1))
}

func bucket(n int) int {
	if n <= 8 {
		return 8
	}
	return 16
}

func worker(id int, m model, scoreFn *jit.Func[func(model, jit.Array, jit.Array) jit.Array],
	rerankFn *jit.Func[func(jit.Array, jit.Array) jit.Array],
	jobs <-chan request, results chan<- answer, wg *sync.WaitGroup) {
	defer wg.Done()
	for req := range jobs {
		n := len(req.cands)
		flat := make([]float32, 0, bucket(n)*features)
		mask := make([]float32, bucket(n))
		for i, c := range req.cands {
			flat = append(flat, c...)
			mask[i] = 1
		}
		flat = append(flat, make([]float32, (bucket(n)-n)*features)...)
		x := jit.FromSlice(flat, bucket(n), features)
		s := scoreFn.Call(m, x, jit.FromSlice(mask))
		real := x.Slice([]int{0, 0}, []int{n, features})
		final := rerankFn.Call(real, s.Slice([]int{0}, []int{n})) // want shapechurn
		vals := final.Float32s()
		best := 0
		for i, v := range vals {
			if v > vals[best] {
				best = i
			}
		}
		results <- answer{id: req.id, best: best, worker: id, score: vals[best]}
	}
}

func main() {
	r := rand.New(rand.NewSource(3))
	m := newModel(r)
	scoreFn := jit.Jit(score)
	rerankFn := jit.Jit(rerank)

	jobs := make(chan request)
	results := make(chan answer, 4)
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go worker(w, m, scoreFn, rerankFn, jobs, results, &wg)
	}
	go func() {
		for id := 0; id < 12; id++ {
			cands := make([][]float32, 3+id)
			for i := range cands {
				cands[i] = make([]float32, features)
				for j := range cands[i] {
					cands[i][j] = float32(r.NormFloat64())
				}
			}
			jobs <- request{id: id, cands: cands}
		}
		close(jobs)
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	var all []answer
	for a := range results {
		all = append(all, a)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].id < all[j].id })
	for _, a := range all {
		fmt.Printf("request %2d -> candidate %2d (score %.3f)\n", a.id, a.best, a.score)
	}
	fmt.Println("candidates reranked:", scored.Load())
	fmt.Println("scorer signatures:", scoreFn.Signatures())
}
