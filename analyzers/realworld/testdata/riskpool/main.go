// Command riskpool scores loan portfolios with a small default-probability
// network, using a pool of workers that pull jobs from a channel and send
// results back. It is the Go port of a multiprocessing + jax.jit batch
// scorer: every portfolio is a [loans, features] matrix, the network is a
// stack of tanh layers with a logistic head.
package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

const (
	numFeatures = 8
	loansPerJob = 16
	numWorkers  = 4
)

// Dense is one affine layer.
type Dense struct {
	W, B jit.Array
}

// Model is the scorer's parameters (a pytree).
type Model struct {
	Hidden []Dense
	Head   Dense
}

func newDense(r *rand.Rand, in, out int) Dense {
	w := make([]float32, in*out)
	for i := range w {
		w[i] = float32(r.NormFloat64() * 1.5 / math.Sqrt(float64(in)))
	}
	return Dense{W: jit.FromSlice(w, in, out), B: jit.Zeros(jit.Float32, out)}
}

func newModel(seed int64) Model {
	r := rand.New(rand.NewSource(seed))
	m := Model{}
	in := numFeatures
	for _, width := range []int{24, 24, 12} {
		m.Hidden = append(m.Hidden, newDense(r, in, width))
		in = width
	}
	m.Head = newDense(r, in, 1)
	m.Head.B = jit.FromSlice([]float32{-2.2}) // base default rate around 10%
	return m
}

// rowsScored counts the loans that went through the network.
var rowsScored atomic.Int64

// logits runs the hidden stack and the head: [N, F] -> [N].
func logits(m Model, x jit.Array) jit.Array {
	h := x
	for _, layer := range m.Hidden {
		h = h.MatMul(layer.W).Add(layer.B).Tanh()
	}
	return h.MatMul(m.Head.W).Add(m.Head.B).Reshape(x.Shape()[0])
}

// Score returns each loan's probability of default.
func Score(m Model, x jit.Array) jit.Array {
	rowsScored.Add(int64(x.Shape()[0])) // want traceeffect
	return logits(m, x).Logistic()
}

// ExpectedLoss is the portfolio's expected loss for exposures at default
// and a loss-given-default rate.
func ExpectedLoss(m Model, x, exposure jit.Array, lgd jit.Array) jit.Array {
	pd := logits(m, x).Logistic()
	return pd.Mul(exposure).Mul(lgd).Sum()
}

// StressScore shocks the features and re-scores; a shock that pushes any
// feature past the model's range is capped first.
func StressScore(m Model, x, shock jit.Array) jit.Array {
	shocked := x.Add(shock)
	if shocked.Abs().MaxReduce().Item() > 4 { // want tracedbool
		shocked = shocked.Max(-4).Min(4)
	}
	return logits(m, shocked).Logistic()
}

type jobKind int

const (
	standard jobKind = iota
	calibrated
	stressed
)

// Job is one portfolio to score.
type Job struct {
	ID          int
	Kind        jobKind
	Features    jit.Array // [loans, features]
	Exposure    jit.Array // [loans]
	Temperature float64   // calibration temperature (calibrated jobs)
	Ctx         context.Context
}

// Result is what a worker sends back.
type Result struct {
	ID     int
	Worker int
	MeanPD float64
	EL     float64
	Err    error
}

// pool holds the jitted entry points, built once and shared by the workers.
type pool struct {
	model  Model
	loss   *jit.Func[func(Model, jit.Array, jit.Array, jit.Array) jit.Array]
	stress *jit.Func[func(Model, jit.Array, jit.Array) jit.Array]
	done   atomic.Int64
	failed atomic.Int64
}

func (p *pool) run(worker int, score *jit.Func[func(Model, jit.Array) jit.Array], job Job) (res Result) {
	res = Result{ID: job.ID, Worker: worker}
	defer func() {
		if r := recover(); r != nil {
			// Keep the worker alive: report the panic and fail only this job.
			fmt.Fprintf(os.Stderr, "panic: %v\n[worker %d, job %d]\n", r, worker, job.ID)
			err, _ := r.(error)
			res.Err = fmt.Errorf("job %d: %w", job.ID, err)
			p.failed.Add(1)
		}
	}()
	if err := job.Ctx.Err(); err != nil {
		res.Err = err
		return res
	}
	var pd jit.Array
	switch job.Kind {
	case standard:
		pd = score.Call(p.model, job.Features)
	case calibrated:
		temp := job.Temperature
		scaled := jit.Jit(func(m Model, x jit.Array) jit.Array { // want staticargs
			return logits(m, x).Div(temp).Logistic()
		})
		pd = scaled.Call(p.model, job.Features)
	case stressed:
		shock := jit.Full(0.75, jit.Float32, numFeatures)
		pd = p.stress.Call(p.model, job.Features, shock)
	}
	res.MeanPD = pd.Mean().Item()
	res.EL = p.loss.Call(p.model, job.Features, job.Exposure, jit.Scalar(float32(0.45))).Item()
	p.done.Add(1)
	return res
}

// worker scores jobs until the channel closes or the context is cancelled.
func (p *pool) worker(ctx context.Context, id int, jobs <-chan Job, results chan<- Result) {
	// Each worker holds its own handle on the scorer.
	score := jit.Jit(Score)
	for {
		select {
		case <-ctx.Done():
			return
		case job, ok := <-jobs:
			if !ok {
				return
			}
			results <- p.run(id, score, job)
		}
	}
}

func makeJobs(r *rand.Rand, n int, cancelled context.Context) []Job {
	jobs := make([]Job, n)
	for i := range jobs {
		feats := make([]float32, loansPerJob*numFeatures)
		for k := range feats {
			feats[k] = float32(r.NormFloat64())
		}
		expo := make([]float32, loansPerJob)
		for k := range expo {
			expo[k] = float32(10_000 + r.Intn(90_000))
		}
		kind := standard
		switch {
		case i%6 == 5:
			kind = stressed
		case i%3 == 1:
			kind = calibrated
		}
		ctx := context.Background()
		if i == n-1 {
			ctx = cancelled // the client gave up before we got to it
		}
		jobs[i] = Job{
			ID: i, Kind: kind, Ctx: ctx,
			Features:    jit.FromSlice(feats, loansPerJob, numFeatures),
			Exposure:    jit.FromSlice(expo),
			Temperature: 0.8 + 0.1*float64(i%5),
		}
	}
	return jobs
}

func main() {
	r := rand.New(rand.NewSource(42))
	p := &pool{
		model:  newModel(1),
		loss:   jit.Jit(ExpectedLoss),
		stress: jit.Jit(StressScore),
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gone, giveUp := context.WithCancel(context.Background())
	giveUp()

	jobs := make(chan Job)
	results := make(chan Result)
	var wg sync.WaitGroup
	for w := 0; w < numWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.worker(ctx, w, jobs, results)
		}()
	}
	all := makeJobs(r, 14, gone)
	go func() {
		for _, j := range all {
			jobs <- j
		}
		close(jobs)
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	var collected []Result
	for res := range results {
		collected = append(collected, res)
	}
	sort.Slice(collected, func(i, j int) bool { return collected[i].ID < collected[j].ID })

	var totalEL float64
	for _, res := range collected {
		var jerr *jit.Error
		switch {
		case errors.Is(res.Err, context.Canceled):
			fmt.Printf("job %2d: skipped, client cancelled\n", res.ID)
		case errors.As(res.Err, &jerr):
			fmt.Printf("job %2d: failed (%s)\n", res.ID, jerr.Kind)
		default:
			totalEL += res.EL
			fmt.Printf("job %2d: mean PD %.4f  expected loss %10.2f\n", res.ID, res.MeanPD, res.EL)
		}
	}
	fmt.Printf("done=%d failed=%d total expected loss %.2f\n", p.done.Load(), p.failed.Load(), totalEL)
	fmt.Printf("score signatures=%d, loss compiles=%d hits=%d\n",
		len(jit.Jit(Score).Signatures()), p.loss.Stats().Compiles, p.loss.Stats().Hits)
	fmt.Printf("rows counted by the scorer: %d\n", rowsScored.Load())
}
