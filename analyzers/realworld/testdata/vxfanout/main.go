// Command vxfanout scores per-account transaction batches with a pool of
// workers, collecting errors errgroup-style and merging the results.
package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"corpus/vxfanout/kern"

	"github.com/jitlint/jitlint/jit"
)

type Job struct {
	ID      int
	Account string
	Rows    [][]float32
	Labels  []float32
	Strict  bool
}

type Result struct {
	Account   string
	Risk      float64
	MaxRow    float64
	Total0    float64
	GradNorm  float64
	Escalated bool
}

// group is a minimal errgroup: Go runs f, Wait returns every error joined;
// with cancelOnError the first error cancels the shared context.
type group struct {
	wg            sync.WaitGroup
	mu            sync.Mutex
	errs          []error
	cancel        context.CancelFunc
	cancelOnError bool
}

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mu.Lock()
			g.errs = append(g.errs, err)
			g.mu.Unlock()
			if g.cancelOnError {
				g.cancel()
			}
		}
	}()
}

func (g *group) Wait() error {
	g.wg.Wait()
	var flat []error
	for _, e := range g.errs {
		if multi, ok := e.(interface{ Unwrap() []error }); ok {
			flat = append(flat, multi.Unwrap()...)
		} else {
			flat = append(flat, e)
		}
	}
	sort.Slice(flat, func(i, j int) bool { return flat[i].Error() < flat[j].Error() })
	return errors.Join(flat...)
}

var (
	params    = kern.Params{W: jit.FromSlice([]float32{0.8, -0.5, 0.3, 0.1, -0.2, 0.6}), B: jit.Scalar(float32(-0.1))}
	riskJit   = jit.Jit(kern.RiskScore)
	rowsJit   = jit.Jit(jit.Vmap(kern.RowScore, jit.InAxes(jit.NotMapped, 0)))
	totalsJit = jit.Jit(kern.Totals)
	guardJit  = jit.Jit(guardOutliers)
	peakJit   = jit.Jit(peakScore, jit.StaticArgnums(0))
	gradJit   = jit.Jit(jit.Grad[func(kern.Params, jit.Array, jit.Array, jit.Array) kern.Params](regLoss))
)

// peakScore is the largest score among the first n (real) rows.
func peakScore(n int, scores jit.Array) jit.Array {
	return scores.Slice([]int{0}, []int{n}).MaxReduce()
}

// guardOutliers squashes accounts with extreme values before scoring.
func guardOutliers(x jit.Array) jit.Array {
	if x.Abs().MaxReduce().Gt(20).Bool() { // want tracedbool
		return x.Div(20).Tanh().Mul(20)
	}
	return x
}

// regLoss adds an L2 penalty on the weights to the data loss.
func regLoss(p kern.Params, x, y, mask jit.Array) jit.Array {
	return kern.Loss(p, x, y, mask).Add(p.W.Pow(2).Sum().Mul(1e-3))
}

func bucketRows(n int) int {
	for _, b := range []int{8, 16, 32} {
		if n <= b {
			return b
		}
	}
	return n
}

// pad lays rows into a [b, Features] batch with a row mask.
func pad(rows [][]float32, labels []float32) (x, y, mask jit.Array) {
	b := bucketRows(len(rows))
	flat := make([]float32, b*kern.Features)
	lab := make([]float32, b)
	m := make([]float32, b)
	for i, r := range rows {
		copy(flat[i*kern.Features:], r)
		lab[i], m[i] = labels[i], 1
	}
	return jit.FromSlice(flat, b, kern.Features), jit.FromSlice(lab), jit.FromSlice(m)
}

func processJob(ctx context.Context, j Job) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("job %d: %w", j.ID, err)
	}
	x, y, mask := pad(j.Rows, j.Labels)
	if j.Strict {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					var je *jit.Error
					if e, ok := r.(error); ok && errors.As(e, &je) {
						err = fmt.Errorf("job %d (%s): guard failed: %s", j.ID, j.Account, je.Kind)
						return
					}
					panic(r)
				}
			}()
			x = guardJit.Call(x)
		}()
		if err != nil {
			return Result{}, err
		}
	}
	risk := riskJit.Call(params, x, mask)
	rowScores := rowsJit.Call(params, x).Mul(mask)
	peak := peakJit.Call(len(j.Rows), rowScores) // want staticargs
	raw := make([]float32, 0, len(j.Rows)*kern.Features)
	for _, r := range j.Rows {
		raw = append(raw, r...)
	}
	totals := totalsJit.Call(jit.FromSlice(raw, len(j.Rows), kern.Features)) // want shapechurn
	g := gradJit.Call(params, x, y, mask)
	res := Result{
		Account:  j.Account,
		Risk:     risk.Item(),
		MaxRow:   peak.Item(),
		Total0:   totals.Float64s()[0],
		GradNorm: g.W.Pow(2).Sum().Sqrt().Item(),
	}
	res.Escalated = res.Risk > 0.6
	return res, nil
}

func run(parent context.Context, jobs []Job, workers int, cancelOnError bool) (map[string]Result, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	g := &group{cancel: cancel, cancelOnError: cancelOnError}
	queue := make(chan Job)
	results := make(chan Result)
	go func() {
		defer close(queue)
		for _, j := range jobs {
			if ctx.Err() != nil {
				return
			}
			select {
			case queue <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range workers {
		g.Go(func() error {
			var errs []error
			for j := range queue {
				r, err := processJob(ctx, j)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				results <- r
			}
			return errors.Join(errs...)
		})
	}
	merged := map[string]Result{}
	done := make(chan struct{})
	go func() {
		for r := range results {
			merged[r.Account] = r
		}
		close(done)
	}()
	err := g.Wait()
	close(results)
	<-done
	if perr := parent.Err(); perr != nil {
		err = errors.Join(perr, err)
	}
	return merged, err
}

func makeJobs() []Job {
	var jobs []Job
	for id := range 16 {
		n := 3 + (id*5)%17
		j := Job{ID: id, Account: fmt.Sprintf("acct-%02d", id), Strict: id == 5 || id == 11}
		for r := range n {
			row := make([]float32, kern.Features)
			for f := range row {
				row[f] = float32((id+3*r+7*f)%13)/4 - 1.5
			}
			j.Rows = append(j.Rows, row)
			j.Labels = append(j.Labels, float32((id+r)%2))
		}
		jobs = append(jobs, j)
	}
	return jobs
}

func main() {
	jobs := makeJobs()
	merged, err := run(context.Background(), jobs, 4, false)
	accounts := make([]string, 0, len(merged))
	for a := range merged {
		accounts = append(accounts, a)
	}
	sort.Strings(accounts)
	for _, a := range accounts {
		r := merged[a]
		fmt.Printf("%s risk=%.3f max=%.3f total0=%.2f |g|=%.3f escalated=%v\n", a, r.Risk, r.MaxRow, r.Total0, r.GradNorm, r.Escalated)
	}
	if err != nil {
		fmt.Println("errors:\n" + err.Error())
	}

	// A run whose deadline has already passed does no work at all.
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	late, err := run(ctx, jobs[:4], 2, true)
	fmt.Printf("expired run: %d results, err=%v\n", len(late), errors.Is(err, context.DeadlineExceeded))
}
