// shardstats fans a feature-statistics job out over data shards (errgroup
// style), merges per-shard results through a channel, and aggregates latency
// metrics on a ticker.
package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/jitlint/jitlint/jit"
)

const numCols = 40

// group is a minimal errgroup: the first error cancels the shared context.
type group struct {
	wg     sync.WaitGroup
	once   sync.Once
	err    error
	cancel context.CancelFunc
}

func withContext(ctx context.Context) (*group, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	return &group{cancel: cancel}, ctx
}

func (g *group) Go(fn func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := fn(); err != nil {
			g.once.Do(func() { g.err = err; g.cancel() })
		}
	}()
}

func (g *group) Wait() error { g.wg.Wait(); g.cancel(); return g.err }

type shardResult struct {
	shard int
	mean  float64
	rows  int
}

// metrics is fed samples on a channel and folds them on every tick; its
// counters are read only after the aggregator goroutine has exited.
type metrics struct {
	samples chan int
	rows    int
	batches int
	done    chan struct{}
}

func startMetrics(every time.Duration) *metrics {
	m := &metrics{samples: make(chan int, 64), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		t := time.NewTicker(every)
		defer t.Stop()
		pending := 0
		flush := func() { m.rows += pending; pending = 0 }
		for {
			select {
			case n, ok := <-m.samples:
				if !ok {
					flush()
					return
				}
				pending += n
				m.batches++
			case <-t.C:
				flush()
			}
		}
	}()
	return m
}

func (m *metrics) stop() (rows, batches int) {
	close(m.samples)
	<-m.done
	return m.rows, m.batches
}

var (
	traceMu      sync.Mutex
	traceStarted = map[string]time.Time{}
)

// colMeans averages every column of a shard; columns are summed one by one,
// as the NumPy original did.
func colMeans(x jit.Array) jit.Array {
	traceMu.Lock()
	traceStarted["colMeans"] = time.Now() // want traceeffect
	traceMu.Unlock()
	n := float64(x.Shape()[0])
	cols := make([]jit.Array, 0, numCols)
	for c := 0; c < numCols; c++ { // want unrolledloop
		col := x.Slice([]int{0, c}, []int{x.Shape()[0], c + 1})
		cols = append(cols, col.Sum().Div(n).Reshape(1))
	}
	return jit.Concatenate(0, cols...).Mean()
}

// maskedMeans is the bucketed version: padded rows are masked out, columns
// reduced in one op.
func maskedMeans(x, rowMask jit.Array) jit.Array {
	s := x.Mul(rowMask.Reshape(-1, 1)).Sum(0)
	return s.Div(rowMask.Sum().Max(1)).Mean()
}

// checkFinite validates a shard inside the compiled program.
func checkFinite(x jit.Array) jit.Array {
	bad := x.Ne(x).Astype(jit.Float32).Sum()
	if bad.Int() > 0 { // want tracedbool
		return jit.Full(-1, jit.Float32)
	}
	return x.Abs().MaxReduce()
}

func makeShard(i, rows int) [][]float32 {
	out := make([][]float32, rows)
	for r := range out {
		out[r] = make([]float32, numCols)
		for c := range out[r] {
			out[r][c] = float32((i*31+r*7+c)%13) * 0.1
		}
	}
	return out
}

func flatten(rows [][]float32, pad int) (jit.Array, jit.Array) {
	flat := make([]float32, 0, pad*numCols)
	mask := make([]float32, pad)
	for r := 0; r < pad; r++ {
		if r < len(rows) {
			flat = append(flat, rows[r]...)
			mask[r] = 1
		} else {
			flat = append(flat, make([]float32, numCols)...)
		}
	}
	return jit.FromSlice(flat, pad, numCols), jit.FromSlice(mask)
}

func bucket(n int) int {
	for _, b := range []int{64, 128} {
		if n <= b {
			return b
		}
	}
	return 256
}

func fanOut(ctx context.Context, shards [][][]float32, padded bool, m *metrics) ([]shardResult, error) {
	direct := jit.Jit(colMeans)
	bucketed := jit.Jit(maskedMeans)
	g, ctx := withContext(ctx)
	results := make(chan shardResult, len(shards))
	for i, rows := range shards {
		g.Go(func() error {
			select {
			case <-ctx.Done():
				return ctx.Err()
			default:
			}
			var mean float64
			if padded {
				x, mask := flatten(rows, bucket(len(rows)))
				mean = bucketed.Call(x, mask).Item()
			} else {
				x, _ := flatten(rows, len(rows))
				mean = direct.Call(x).Item() // want shapechurn
			}
			m.samples <- len(rows)
			results <- shardResult{shard: i, mean: mean, rows: len(rows)}
			return nil
		})
	}
	err := g.Wait()
	close(results)
	var out []shardResult
	for r := range results {
		out = append(out, r)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].shard < out[b].shard })
	return out, err
}

func main() {
	var shards [][][]float32
	for i := 0; i < 8; i++ {
		shards = append(shards, makeShard(i, 50+9*i))
	}
	m := startMetrics(2 * time.Millisecond)
	ctx := context.Background()
	// The third run is for a request whose caller already gave up.
	gone, giveUp := context.WithCancel(ctx)
	giveUp()
	for run, padded := range []bool{false, true, true} {
		runCtx := ctx
		if run == 2 {
			runCtx = gone
		}
		res, err := fanOut(runCtx, shards, padded, m)
		if err != nil {
			fmt.Println("fan-out failed:", err)
			continue
		}
		total := 0.0
		for _, r := range res {
			total += r.mean * float64(r.rows)
		}
		fmt.Printf("padded=%v shards=%d weighted=%.4f\n", padded, len(res), total)
	}
	rows, batches := m.stop()
	fmt.Printf("metrics: rows=%d batches=%d colMeans traced=%v\n", rows, batches, len(traceStarted) == 1)

	validate := jit.Jit(checkFinite)
	x, _ := flatten(shards[0], 64)
	func() {
		defer func() {
			if v := recover(); v != nil {
				var jerr *jit.Error
				if e, ok := v.(error); ok && errors.As(e, &jerr) {
					fmt.Println("validate:", jerr.Kind)
					return
				}
				panic(v)
			}
		}()
		fmt.Println("validate max:", validate.Call(x).Item())
	}()

	// Per-shard summary loop on the host: 8 shards, not traced.
	for i := 0; i < len(shards); i++ {
		if i%4 == 0 {
			fmt.Printf("shard %d: %d rows\n", i, len(shards[i]))
		}
	}
}
