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

// join is where a dispatch waits for its pool shares. A share runs once,
// on the pool goroutine or the dispatcher that claims it first: the
// dispatcher, its own share done, claims the shares no pool goroutine has
// started (the job's units are then all taken, so they return at once),
// so that it never waits for a goroutine the operating system has not
// run yet. state holds the dispatch's generation (high 32 bits: a task
// left in the queue from an earlier dispatch claims nothing) and the
// claimed shares 1 to 32 (low bits; shares above 32 run on the pool
// only); left counts the shares not done, and the share that ends them
// sends on done.
type join struct {
	state atomic.Uint64
	left  atomic.Int32
	done  chan struct{}
}

// claim reports whether share w of generation gen is this caller's to run.
func (jn *join) claim(gen uint32, w int) bool {
	if w > 32 {
		return true
	}
	bit := uint64(1) << (w - 1)
	for {
		s := jn.state.Load()
		if uint32(s>>32) != gen || s&bit != 0 {
			return false
		}
		if jn.state.CompareAndSwap(s, s|bit) {
			return true
		}
	}
}

// finish records that one share is done.
func (jn *join) finish() {
	if jn.left.Add(-1) == 0 {
		select {
		case jn.done <- struct{}{}:
		default:
		}
	}
}

// task is a worker's share of a job handed to a pool goroutine.
type task struct {
	j   job
	jn  *join
	gen uint32
	w   int
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
// (OpenBLAS's threads poll likewise.) poolWait is short: a share that
// takes longer is usually one whose thread the operating system has
// descheduled (a loaded machine), and a dispatcher that keeps polling
// keeps the processor that thread could run on.
const (
	poolSpin = 200 * time.Microsecond
	poolWait = 50 * time.Microsecond
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
		if t.jn.claim(t.gen, t.w) {
			t.j.work(t.w)
			t.jn.finish()
		}
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
// calling goroutine, which then runs the shares no pool goroutine has
// claimed (see join; jn is j's) and waits for the others, polling for up
// to poolWait before it blocks (a blocked goroutine is woken as slowly as
// a parked pool goroutine, and its waker may then hold its processor).
func dispatch(j job, jn *join, nw int) {
	poolOnce.Do(startPool)
	if jn.done == nil {
		jn.done = make(chan struct{}, 1)
	}
	select {
	case <-jn.done: // an earlier dispatch's, which saw left reach 0 itself
	default:
	}
	gen := uint32(jn.state.Load()>>32) + 1
	jn.state.Store(uint64(gen) << 32)
	jn.left.Store(int32(nw - 1))
	for w := 1; w < nw; w++ {
		poolTasks <- task{j: j, jn: jn, gen: gen, w: w}
		if poolSpinning.Load() == 0 {
			select {
			case poolWake <- struct{}{}:
			default:
			}
		}
	}
	j.work(0)
	for w := 1; w < nw; w++ {
		if jn.claim(gen, w) {
			j.work(w)
			jn.finish()
		}
	}
	start := time.Now()
	for i := 1; jn.left.Load() > 0; i++ {
		if i%128 == 0 && time.Since(start) > poolWait {
			for jn.left.Load() > 0 {
				<-jn.done
			}
			break
		}
	}
}

// parallelFor reports whether a kernel over n elements with per-element
// cost is split over goroutines.
func parallelFor(n, cost int) bool {
	return n*cost >= parallelWork && n >= 2*blockSize && workers() > 1
}
