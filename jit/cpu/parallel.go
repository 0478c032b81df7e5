package cpu

import (
	"runtime"
	"sync"
)

// blockSize is the number of elements a kernel processes per block: small
// enough that a kernel's live registers stay in L1/L2, large enough that the
// per-block closure calls are amortized. Measured with BenchmarkBlockSize
// (see bench/RESULTS.md).
var blockSize = 2048

// workers is the number of goroutines a large kernel is split over.
func workers() int { return runtime.GOMAXPROCS(0) }

// parallelWork is the estimated work (elements × per-element cost) above
// which a kernel is split over goroutines; below it the hand-off costs
// more than it saves.
const parallelWork = 1 << 16

// chunksPerWorker is how many chunks per worker an elementwise kernel is
// cut into, for balance when some goroutines run late.
const chunksPerWorker = 4

// job is a run split over workers: work(w) is worker w's share.
type job interface {
	work(w int)
}

// task is a worker's share of a job handed to a pool goroutine.
type task struct {
	j  job
	wg *sync.WaitGroup
	w  int
}

var (
	poolOnce  sync.Once
	poolTasks chan task
)

// startPool starts one goroutine per CPU that runs the shares of jobs
// (kernel chunks, matrix product tasks). Shares never wait on other shares,
// so the pool cannot deadlock, even when many executables run at once.
func startPool() {
	n := runtime.NumCPU()
	poolTasks = make(chan task, 4*n)
	for i := 0; i < n; i++ {
		go func() {
			for t := range poolTasks {
				t.j.work(t.w)
				t.wg.Done()
			}
		}()
	}
}

// dispatch runs workers 1..nw-1 of j on the pool and worker 0 on the
// calling goroutine, then waits for all of them (wg is j's).
func dispatch(j job, wg *sync.WaitGroup, nw int) {
	poolOnce.Do(startPool)
	wg.Add(nw - 1)
	for w := 1; w < nw; w++ {
		poolTasks <- task{j: j, wg: wg, w: w}
	}
	j.work(0)
	wg.Wait()
}

// parallelFor reports whether a kernel over n elements with per-element
// cost is split over goroutines.
func parallelFor(n, cost int) bool {
	return n*cost >= parallelWork && n >= 2*blockSize && workers() > 1
}
