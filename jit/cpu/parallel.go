package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
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

// join is where a dispatch waits for its pool shares: left counts the
// shares not done (polled first), wg blocks when they take long.
type join struct {
	left atomic.Int32
	wg   sync.WaitGroup
}

// task is a worker's share of a job handed to a pool goroutine.
type task struct {
	j  job
	jn *join
	w  int
}

var (
	poolOnce  sync.Once
	poolTasks chan task
	// poolWake holds one token per wake-up owed to a parked pool
	// goroutine (tokens are hints: a woken goroutine that finds no task
	// parks again).
	poolWake chan struct{}
	// poolSpinning counts the pool goroutines polling poolTasks.
	poolSpinning atomic.Int32
)

// poolSpin is how long an idle pool goroutine polls for its next task
// before it parks, and poolWait how long a dispatching goroutine polls
// for its shares before it blocks: waking a parked thread takes the
// operating system (and a virtual machine's hypervisor) 15 to 130 µs on
// the machines measured, as long as a phase of a small matrix product.
// (OpenBLAS's threads poll likewise.)
const (
	poolSpin = 200 * time.Microsecond
	poolWait = time.Millisecond
)

// startPool starts one goroutine per CPU that runs the shares of jobs
// (kernel chunks, matrix product tasks). Shares never wait on other shares,
// so the pool cannot deadlock, even when many executables run at once.
func startPool() {
	n := runtime.NumCPU()
	poolTasks = make(chan task, 4*n)
	poolWake = make(chan struct{}, n)
	for range n {
		go poolLoop()
	}
}

// poolLoop is a pool goroutine: it runs tasks from poolTasks. While it
// holds one of the GOMAXPROCS-1 polling slots (so that a dispatching
// goroutine keeps a processor), it polls the queue between tasks, keeping
// the slot while it runs one, so that a dispatcher never wakes a parked
// goroutine for a task that a polling one will take; after poolSpin
// without a task it gives the slot up and parks until woken.
func poolLoop() {
	polling := false
	for {
		var t task
		select {
		case t = <-poolTasks:
		default:
			if !polling {
				polling = int(poolSpinning.Add(1)) < workers()
				if !polling {
					poolSpinning.Add(-1)
				}
			}
			t, polling = pollTask(polling)
		}
		t.j.work(t.w)
		t.jn.left.Add(-1)
		t.jn.wg.Done()
	}
}

// pollTask returns the next task, polling first when polling (holding a
// slot); it reports whether it still holds the slot.
func pollTask(polling bool) (task, bool) {
	for {
		if polling {
			start := time.Now()
			for i := 1; ; i++ {
				select {
				case t := <-poolTasks:
					return t, true
				default:
				}
				if i%128 == 0 && time.Since(start) > poolSpin {
					break
				}
			}
			// The slot is given up before the last look at the queue: a
			// dispatcher that saw it held queued its task before, so the
			// look finds the task; one that did not sends a wake-up.
			poolSpinning.Add(-1)
			polling = false
		}
		select {
		case t := <-poolTasks:
			return t, false
		default:
		}
		// Parked on poolWake, not on poolTasks: a goroutine blocked on the
		// queue would be handed tasks ahead of the polling ones.
		<-poolWake
		polling = int(poolSpinning.Add(1)) < workers()
		if !polling {
			poolSpinning.Add(-1)
		}
	}
}

// dispatch runs workers 1..nw-1 of j on the pool and worker 0 on the
// calling goroutine, then waits for all of them (jn is j's), polling for
// up to poolWait before it blocks (a blocked goroutine is woken as slowly
// as a parked pool goroutine, and its waker may then hold its processor).
func dispatch(j job, jn *join, nw int) {
	poolOnce.Do(startPool)
	jn.left.Store(int32(nw - 1))
	jn.wg.Add(nw - 1)
	for w := 1; w < nw; w++ {
		poolTasks <- task{j: j, jn: jn, w: w}
		if poolSpinning.Load() == 0 {
			select {
			case poolWake <- struct{}{}:
			default:
			}
		}
	}
	j.work(0)
	start := time.Now()
	for i := 1; jn.left.Load() > 0; i++ {
		if i%128 == 0 && time.Since(start) > poolWait {
			break
		}
	}
	jn.wg.Wait()
}

// parallelFor reports whether a kernel over n elements with per-element
// cost is split over goroutines.
func parallelFor(n, cost int) bool {
	return n*cost >= parallelWork && n >= 2*blockSize && workers() > 1
}
