// fraudpool scores fraud-check jobs with a fixed pool of workers sharing one
// jitted logistic model. Jobs carry a context; the pool drains on cancellation.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jitlint/jitlint/jit"
)

const numFeatures = 8

// Scorer is anything that turns a [batch, features] matrix into per-row scores.
type Scorer interface {
	Predict(x jit.Array) jit.Array
}

type logisticModel struct {
	w    jit.Array
	bias float64
}

func (m *logisticModel) Predict(x jit.Array) jit.Array {
	return x.MatMul(m.w).Add(m.bias).Logistic()
}

func newLogistic() *logisticModel {
	w := make([]float32, numFeatures)
	for i := range w {
		w[i] = float32(i%3-1) * 0.25
	}
	return &logisticModel{w: jit.FromSlice(w), bias: -0.1}
}

type job struct {
	id   int
	rows [][]float32
	ctx  context.Context
}

type result struct {
	id      int
	maxProb float64
	err     error
}

// poolOption configures the pool (functional options).
type poolOption func(*pool)

func withWorkers(n int) poolOption { return func(p *pool) { p.workers = n } }
func withBuckets(sizes ...int) poolOption {
	return func(p *pool) { p.buckets = sizes }
}

type pool struct {
	workers int
	buckets []int
	model   Scorer
	score   *jit.Func[func(jit.Array) jit.Array]
	padded  *jit.Func[func(jit.Array, jit.Array) jit.Array]
}

var tracesSeen atomic.Int64

func newPool(m Scorer, opts ...poolOption) *pool {
	p := &pool{workers: 2, model: m}
	for _, o := range opts {
		o(p)
	}
	// One wrapper for the lifetime of the pool, built from a method value once.
	p.score = jit.Jit(func(x jit.Array) jit.Array {
		tracesSeen.Add(1) // want traceeffect
		return m.Predict(x)
	})
	p.padded = jit.Jit(func(x, mask jit.Array) jit.Array {
		probs := m.Predict(x)
		return probs.Mul(mask).MaxReduce()
	})
	return p
}

func toMatrix(rows [][]float32) jit.Array {
	flat := make([]float32, 0, len(rows)*numFeatures)
	for _, r := range rows {
		flat = append(flat, r...)
	}
	return jit.FromSlice(flat, len(rows), numFeatures)
}

// bucketize pads rows up to the next bucket so the compiled program is reused.
func (p *pool) bucketize(rows [][]float32) (jit.Array, jit.Array) {
	size := p.buckets[len(p.buckets)-1]
	for _, b := range p.buckets {
		if len(rows) <= b {
			size = b
			break
		}
	}
	padded := make([][]float32, size)
	mask := make([]float32, size)
	for i := range padded {
		if i < len(rows) {
			padded[i] = rows[i]
			mask[i] = 1
		} else {
			padded[i] = make([]float32, numFeatures)
		}
	}
	return toMatrix(padded), jit.FromSlice(mask)
}

func (p *pool) run(ctx context.Context, jobs <-chan job, bucketed bool) []result {
	out := make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < p.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case j, ok := <-jobs:
					if !ok {
						return
					}
					if err := j.ctx.Err(); err != nil {
						out <- result{id: j.id, err: err}
						continue
					}
					var r result
					if bucketed {
						x, mask := p.bucketize(j.rows)
						r = result{id: j.id, maxProb: p.padded.Call(x, mask).Item()}
					} else {
						probs := p.score.Call(toMatrix(j.rows)) // want shapechurn
						r = result{id: j.id, maxProb: probs.MaxReduce().Item()}
					}
					out <- r
				}
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	var results []result
	for r := range out {
		results = append(results, r)
	}
	sort.Slice(results, func(a, b int) bool { return results[a].id < results[b].id })
	return results
}

func safeCall(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	fn()
	return nil
}

func makeJobs(n int, expired context.Context) <-chan job {
	ch := make(chan job, n)
	for i := 0; i < n; i++ {
		rows := make([][]float32, 3+i)
		for r := range rows {
			rows[r] = make([]float32, numFeatures)
			for f := range rows[r] {
				rows[r][f] = float32((i+r*f)%7) * 0.3
			}
		}
		jctx := context.Background()
		if i == n-1 {
			jctx = expired
		}
		ch <- job{id: i, rows: rows, ctx: jctx}
	}
	close(ch)
	return ch
}

func main() {
	log.SetFlags(0)
	log.SetOutput(os.Stdout)
	p := newPool(newLogistic(), withWorkers(3), withBuckets(8, 16, 32))

	expired, cancelExpired := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancelExpired()
	<-expired.Done()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	flagged := 0
	for _, r := range p.run(ctx, makeJobs(12, expired), false) {
		if errors.Is(r.err, context.DeadlineExceeded) {
			log.Printf("job %d skipped: %v", r.id, r.err)
			continue
		}
		if r.maxProb > 0.6 {
			flagged++
		}
	}
	log.Printf("unbucketed: flagged=%d", flagged)

	flagged = 0
	for _, r := range p.run(ctx, makeJobs(12, expired), true) {
		if r.err == nil && r.maxProb > 0.6 {
			flagged++
		}
	}
	log.Printf("bucketed: flagged=%d compiles=%d", flagged, p.padded.Stats().Compiles)

	// A "hard stop" gate someone wrote with a host if: it blows up while tracing.
	gate := jit.Jit(func(x jit.Array) jit.Array {
		probs := p.model.Predict(x)
		if probs.MaxReduce().Item() > 0.95 { // want tracedbool
			return probs.Mul(0)
		}
		return probs
	})
	sample, _ := p.bucketize([][]float32{make([]float32, numFeatures)})
	if err := safeCall(func() { gate.Call(sample) }); err != nil {
		var jerr *jit.Error
		if errors.As(err, &jerr) {
			log.Printf("gate rejected: %v", jerr.Kind)
		}
	}
	// The same rule, done with a traced branch, compiles fine.
	gate2 := jit.Jit(func(x jit.Array) jit.Array {
		probs := p.model.Predict(x)
		return jit.Where(probs.MaxReduce().Gt(0.95), probs.Mul(0), probs)
	})
	log.Printf("gate2 max=%.3f", gate2.Call(sample).MaxReduce().Item())
	fmt.Println("score traces > 1:", tracesSeen.Load() > 1)
}
