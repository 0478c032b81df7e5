// Command workerpool scores a stream of feature vectors with a pool of
// goroutines. Each worker standardizes its job, optionally validates it,
// clips it to the worker's range and scores it with a shared logistic model;
// results come back over a channel and are aggregated by the main goroutine.
package main

import (
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

const (
	numWorkers = 4
	numJobs    = 48
	featDim    = 16
)

// Job is one feature vector to score.
type Job struct {
	ID   int
	X    jit.Array // f32[featDim]
	Mode string
}

// Result is one scored job.
type Result struct {
	ID     int
	Worker int
	Score  float64
	Err    error
}

var (
	kernelBuilds atomic.Int64
	processed    atomic.Int64
	logger       = log.New(os.Stdout, "[pool] ", 0)
)

// Standardize maps raw features to zero mean and unit variance.
func Standardize(x, mean, invStd jit.Array) jit.Array {
	return x.Sub(mean).Mul(invStd)
}

// Score is a logistic regression with a cubic polynomial expansion of the
// features.
func Score(w, coeffs, x jit.Array) jit.Array {
	logger.Printf("building score kernel for x%v", x.Shape()) // want traceeffect
	kernelBuilds.Add(1)                                       // want traceeffect
	poly := jit.Zeros(jit.Float32, featDim)
	for k := 0; k < 4; k++ {
		ck := coeffs.Slice([]int{k}, []int{k + 1})
		poly = poly.Add(x.Pow(k).Mul(ck))
	}
	return w.Mul(poly).Sum().Logistic()
}

// ScoreMode returns either the probability or the raw logit.
func ScoreMode(mode string, w, x jit.Array) jit.Array {
	z := w.Mul(x).Sum()
	if mode == "logit" {
		return z
	}
	return z.Logistic()
}

// Validate zeroes out inputs that contain outliers.
func Validate(x jit.Array) jit.Array {
	peak := x.Abs().MaxReduce()
	if peak.Item() > 6 { // want tracedbool
		return jit.Zeros(jit.Float32, x.Shape()...)
	}
	return x
}

// Pairwise sums adjacent feature pairs into a compact summary.
func Pairwise(x jit.Array) jit.Array {
	parts := make([]jit.Array, 0, featDim/2)
	for i := 0; i < featDim; i += 2 {
		parts = append(parts, x.Slice([]int{i}, []int{i + 2}).Sum().Reshape(1))
	}
	return jit.Concatenate(0, parts...)
}

func tryCall(f func(jit.Array) jit.Array, x jit.Array) (y jit.Array, err error) {
	defer func() {
		if r := recover(); r != nil {
			var je *jit.Error
			if e, ok := r.(error); ok && errors.As(e, &je) {
				err = je
				return
			}
			panic(r)
		}
	}()
	return f(x), nil
}

type model struct {
	mean, invStd, w, coeffs jit.Array
	score                   *jit.Func[func(w, coeffs, x jit.Array) jit.Array]
	scoreMode               *jit.Func[func(string, jit.Array, jit.Array) jit.Array]
	pairwise                *jit.Func[func(jit.Array) jit.Array]
}

func worker(id int, m *model, jobs <-chan Job, results chan<- Result, wg *sync.WaitGroup) {
	defer wg.Done()
	std := jit.Jit(Standardize)
	validate := jit.Jit(Validate)
	lim := 2.0 + 0.5*float64(id)
	clip := jit.Jit(func(x jit.Array) jit.Array {
		return x.Max(-lim).Min(lim)
	})
	validating := true
	for job := range jobs {
		x := std.Call(job.X, m.mean, m.invStd)
		if validating {
			v, err := tryCall(validate.Call, x)
			if err != nil {
				logger.Printf("worker %d: validation disabled: %s", id, strings.SplitN(err.Error(), "\n", 2)[0])
				results <- Result{ID: -1, Worker: id, Err: err}
				validating = false
			} else {
				x = v
			}
		}
		if peak := x.Abs().MaxReduce().Item(); peak > 6 {
			results <- Result{ID: job.ID, Worker: id, Err: fmt.Errorf("outlier %.2f", peak)}
			continue
		}
		x = clip.Call(x)
		var s float64
		if job.Mode == "" {
			s = m.score.Call(m.w, m.coeffs, x).Item()
		} else {
			s = m.scoreMode.Call(job.Mode, m.w, x).Item()
		}
		summary := m.pairwise.Call(x)
		if id == 0 && job.ID < 4 {
			logger.Printf("worker %d job %d summary %v", id, job.ID, summary)
		}
		processed.Add(1)
		results <- Result{ID: job.ID, Worker: id, Score: s}
	}
}

func makeJobs() []Job {
	jobs := make([]Job, numJobs)
	for i := range jobs {
		data := make([]float32, featDim)
		for j := range data {
			data[j] = float32(math.Sin(float64(i*featDim+j))*3 + float64(j%5))
		}
		if i == 17 {
			data[3] = 40
		}
		mode := ""
		switch i % 3 {
		case 1:
			mode = "logit"
		case 2:
			mode = "prob"
		}
		jobs[i] = Job{ID: i, X: jit.FromSlice(data), Mode: mode}
	}
	return jobs
}

func main() {
	meanData := make([]float32, featDim)
	stdData := make([]float32, featDim)
	wData := make([]float32, featDim)
	for j := 0; j < featDim; j++ {
		meanData[j] = float32(j % 5)
		stdData[j] = 1 / 2.1
		wData[j] = float32(math.Cos(float64(j))) * 0.3
	}
	m := &model{
		mean:      jit.FromSlice(meanData),
		invStd:    jit.FromSlice(stdData),
		w:         jit.FromSlice(wData),
		coeffs:    jit.FromSlice([]float32{0.1, 1, 0.05, -0.01}),
		score:     jit.Jit(Score),
		scoreMode: jit.Jit(ScoreMode, jit.StaticArgnums(0)),
		pairwise:  jit.Jit(Pairwise),
	}

	jobs := make(chan Job)
	results := make(chan Result, numJobs+numWorkers)
	var wg sync.WaitGroup
	for id := 0; id < numWorkers; id++ {
		wg.Add(1)
		go worker(id, m, jobs, results, &wg)
	}
	go func() {
		for _, j := range makeJobs() {
			jobs <- j
		}
		close(jobs)
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	var all []Result
	var validationErr error
	for r := range results {
		if r.ID < 0 {
			if validationErr == nil {
				validationErr = r.Err
			}
			continue
		}
		all = append(all, r)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	failed, sum := 0, 0.0
	perWorker := map[int]int{}
	for _, r := range all {
		if r.Err != nil {
			failed++
			continue
		}
		sum += r.Score
		perWorker[r.Worker]++
	}
	fmt.Printf("scored %d jobs (%d failed), mean score %.4f\n", processed.Load(), failed, sum/float64(len(all)-failed))
	fmt.Printf("jobs per worker: %d workers active\n", len(perWorker))
	fmt.Printf("score kernel built %d time(s); stats score=%+v modes=%v\n",
		kernelBuilds.Load(), m.score.Stats().Compiles, m.scoreMode.Signatures())
	if validationErr != nil {
		panic(validationErr)
	}
}
