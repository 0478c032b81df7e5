package cpu

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// The matrix products of dot_general run as batched GEMM in the structure
// of GotoBLAS and BLIS: for each nc-column block of B and kc-row panel of
// it, the panel is packed into nr-column micro-panels (L3/L1 resident);
// for each mc-row block of A, the block is packed into mr-row micro-panels
// (L2 resident); the micro-kernel multiplies one A micro-panel by one B
// micro-panel into an mr×nr tile of C held in registers. Products too small
// for packing to pay, and matrix-vector products, take direct loops.
//
// Summation order (what the accuracy tests' tolerance follows from): an
// element of C is the sum over kc-long chunks of K, in order; each chunk is
// accumulated from zero with fused multiply-adds in order and added to the
// element in one rounding, so an element's value has passed through at
// most kc + ⌈K/kc⌉ - 1 roundings of the compute type. kc depends only on
// the compute type, never on the micro-kernel, so the assembly and Go
// kernels agree bit for bit. The direct loops accumulate float32 products
// in float64 (the products are exact there) and round once; float64 ones
// chain fused multiply-adds over all of K.

// blocking is the cache blocking of one compute type.
type blocking struct{ mc, kc, nc int }

// The block sizes: an A block of mc×kc is about 144 KiB (L2 is 512 KiB on
// the machines measured), a B micro-panel kc×nr 16 KiB or less (L1 32 KiB),
// and a B panel kc×nc 4 or 8 MiB (L3). mc and nc are rounded down to the
// kernel's mr and nr.
var (
	blockingF32 = blocking{mc: 144, kc: 256, nc: 4096}
	blockingF64 = blocking{mc: 72, kc: 256, nc: 4096}
)

// directWork is the m·n·k below which a product takes the direct loops.
const directWork = 24 * 24 * 24

// gemmParallelWork is the m·n·k (over all batches) above which a product
// is split over the workers.
const gemmParallelWork = 64 * 64 * 64

// gemmTask is one worker's unit: rows [m0, m1) and columns [n0, n1) of
// batch b's output.
type gemmTask struct{ b, m0, m1, n0, n1 int }

// gemmPlan is a product's compile-time part: C[b] (m×n, row-major, the
// batches one after another) = A[b] (m×k) · B[b] (k×n), the operands read
// through their views; S is the operands' element type, T the compute
// type (C's).
type gemmPlan[S, T float32 | float64] struct {
	batch, m, n, k int
	a, b           matView
	kern           microKernel[T]
	blk            blocking
	direct         bool
	tasks          []gemmTask
	nw             int
}

// newGemmPlan chooses the path, the blocking and the split over workers.
func newGemmPlan[S, T float32 | float64](batch, m, n, k int, a, b matView, kern microKernel[T], blk blocking) *gemmPlan[S, T] {
	blk.mc -= blk.mc % kern.mr
	blk.nc -= blk.nc % kern.nr
	g := &gemmPlan[S, T]{batch: batch, m: m, n: n, k: k, a: a, b: b, kern: kern, blk: blk}
	g.direct = n == 1 || m*n*k < directWork
	nw := 1
	if work := batch * m * n * k; work >= gemmParallelWork && workers() > 1 {
		nw = workers()
	}
	g.tasks, g.nw = g.split(nw), nw
	return g
}

// split cuts the output into tasks: whole batches when there are enough,
// else row ranges (multiples of mr, at least 8 micro-panels) and then
// column ranges (multiples of nr, at least 8 micro-panels), about two tasks
// per worker so that a worker the OS delays holds up little.
func (g *gemmPlan[S, T]) split(nw int) []gemmTask {
	want := 1
	if nw > 1 {
		want = 2 * nw
	}
	mParts, nParts := 1, 1
	if g.batch < want {
		per := (want + g.batch - 1) / g.batch
		mParts = max(1, min(per, g.m/(8*g.kern.mr)))
		nParts = max(1, min((per+mParts-1)/mParts, g.n/(8*g.kern.nr)))
	}
	mStep := roundUp((g.m+mParts-1)/mParts, g.kern.mr)
	nStep := roundUp((g.n+nParts-1)/nParts, g.kern.nr)
	var ts []gemmTask
	for b := 0; b < g.batch; b++ {
		for m0 := 0; m0 < g.m || m0 == 0; m0 += mStep {
			for n0 := 0; n0 < g.n || n0 == 0; n0 += nStep {
				ts = append(ts, gemmTask{b: b, m0: m0, m1: min(g.m, m0+mStep), n0: n0, n1: min(g.n, n0+nStep)})
			}
		}
	}
	return ts
}

// roundUp rounds n up to a multiple of m (m > 0), at least m.
func roundUp(n, m int) int { return max(m, (n+m-1)/m*m) }

func (g *gemmPlan[S, T]) dims() (m, n int) { return g.m, g.n }
func (g *gemmPlan[S, T]) workers() int     { return g.nw }

// describe says how the product runs, for the listing.
func (g *gemmPlan[S, T]) describe() string {
	shape := fmt.Sprintf("%d×%d·%d×%d", g.m, g.k, g.k, g.n)
	if g.batch > 1 {
		shape = fmt.Sprintf("%d batches of %s", g.batch, shape)
	}
	how := fmt.Sprintf("packed GEMM, %s micro-kernel, blocks mc=%d kc=%d nc=%d", g.kern.name, g.blk.mc, g.blk.kc, g.blk.nc)
	if g.direct {
		how = "direct loops"
	}
	split := "on the calling goroutine"
	if g.nw > 1 {
		split = fmt.Sprintf("%d tasks over %d goroutines", len(g.tasks), g.nw)
	}
	return fmt.Sprintf("%s: %s, %s", shape, how, split)
}

// epilogue runs fused elementwise work on rows [r0, r1) × columns [c0,
// c1) of batch b's output once they are final, on worker w.
type epilogue func(w, b, r0, r1, c0, c1 int)

// gemmRun is one execution of a plan: the operands, the output and, per
// worker, the packing buffers.
type gemmRun[S, T float32 | float64] struct {
	g    *gemmPlan[S, T]
	a, b []S
	c    []T
	// c64 holds a float64 result stored as float32 until it is rounded.
	c64  []T
	epi  epilogue
	bufs []*gemmWork[T]
	next atomic.Int64
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  any
}

// gemmWork is one worker's packing buffers, the edge tile and the direct
// loops' accumulators.
type gemmWork[T float32 | float64] struct {
	ap, bp, tile []T
	acc          []float64
}

// newRun allocates a run's per-worker buffers.
func (g *gemmPlan[S, T]) newRun() *gemmRun[S, T] {
	r := &gemmRun[S, T]{g: g}
	for range g.nw {
		w := &gemmWork[T]{}
		if g.direct {
			w.acc = make([]float64, g.n)
		} else {
			kc := min(g.blk.kc, g.k)
			w.ap = make([]T, roundUp(min(g.blk.mc, g.m), g.kern.mr)*kc)
			w.bp = make([]T, roundUp(min(g.blk.nc, g.n), g.kern.nr)*kc)
			w.tile = make([]T, g.kern.mr*g.kern.nr)
		}
		r.bufs = append(r.bufs, w)
	}
	return r
}

// run computes c = a·b (and the epilogue) over the plan's workers.
func (r *gemmRun[S, T]) run(a, b []S, c []T, epi epilogue) error {
	r.a, r.b, r.c, r.epi = a, b, c, epi
	r.next.Store(0)
	if r.g.nw == 1 {
		r.work(0)
	} else {
		dispatch(r, &r.wg, r.g.nw)
	}
	r.a, r.b, r.c, r.epi = nil, nil, nil, nil
	if p := r.err; p != nil {
		r.err = nil
		return fmt.Errorf("cpu: internal error in a matrix product (please report): %v", p)
	}
	return nil
}

// work is worker w's share: tasks taken from a shared counter.
func (r *gemmRun[S, T]) work(w int) {
	defer func() {
		if p := recover(); p != nil {
			r.mu.Lock()
			r.err = p
			r.mu.Unlock()
		}
	}()
	for {
		i := int(r.next.Add(1)) - 1
		if i >= len(r.g.tasks) {
			return
		}
		t := r.g.tasks[i]
		if r.g.direct {
			r.directTask(w, t)
		} else {
			r.packedTask(w, t)
		}
		if r.epi != nil && t.m1 > t.m0 && r.g.direct {
			r.epi(w, t.b, t.m0, t.m1, t.n0, t.n1)
		}
	}
}

// packedTask runs the blocked loops over one task.
func (r *gemmRun[S, T]) packedTask(w int, t gemmTask) {
	g, ws := r.g, r.bufs[w]
	mr, nr := g.kern.mr, g.kern.nr
	aBase, bBase, cBase := g.a.batch[t.b], g.b.batch[t.b], t.b*g.m*g.n
	for jc := t.n0; jc < t.n1; jc += g.blk.nc {
		nc := min(g.blk.nc, t.n1-jc)
		if g.k == 0 {
			for i := t.m0; i < t.m1; i++ {
				clear(r.c[cBase+i*g.n+jc:][:nc])
			}
			if r.epi != nil && t.m1 > t.m0 {
				r.epi(w, t.b, t.m0, t.m1, jc, jc+nc)
			}
		}
		for pc := 0; pc < g.k; pc += g.blk.kc {
			kc := min(g.blk.kc, g.k-pc)
			packB(ws.bp, r.b, bBase, g.b.rows[pc:pc+kc], g.b.cols[jc:jc+nc], nr, g.b.rowsUnit, g.b.colsUnit)
			for ic := t.m0; ic < t.m1; ic += g.blk.mc {
				mc := min(g.blk.mc, t.m1-ic)
				packA(ws.ap, r.a, aBase, g.a.rows[ic:ic+mc], g.a.cols[pc:pc+kc], mr, g.a.rowsUnit, g.a.colsUnit)
				r.macro(ws, kc, mc, nc, cBase+ic*g.n+jc, pc > 0)
				if r.epi != nil && pc+kc == g.k {
					r.epi(w, t.b, ic, ic+mc, jc, jc+nc)
				}
			}
		}
	}
}

// macro multiplies a packed mc×kc block of A by a packed kc×nc panel of B
// into C at c0 (row stride n), tile by tile; edge tiles go through the
// worker's tile buffer.
func (r *gemmRun[S, T]) macro(ws *gemmWork[T], kc, mc, nc, c0 int, accum bool) {
	g := r.g
	mr, nr, ldc := g.kern.mr, g.kern.nr, g.n
	for jr := 0; jr < nc; jr += nr {
		bp := ws.bp[jr*kc : (jr+nr)*kc]
		nw := min(nr, nc-jr)
		for ir := 0; ir < mc; ir += mr {
			ap := ws.ap[ir*kc : (ir+mr)*kc]
			mw := min(mr, mc-ir)
			at := c0 + ir*ldc + jr
			if mw == mr && nw == nr {
				g.kern.run(kc, ap, bp, r.c[at:at+(mr-1)*ldc+nr], ldc, accum)
				continue
			}
			g.kern.run(kc, ap, bp, ws.tile, nr, false)
			for i := range mw {
				row, ci := ws.tile[i*nr:i*nr+nw], r.c[at+i*ldc:at+i*ldc+nw]
				if accum {
					for j, v := range row {
						ci[j] = v + ci[j]
					}
				} else {
					copy(ci, row)
				}
			}
		}
	}
}

// directTask computes one task with plain loops: per output row, the
// products of A's row with B's rows accumulated over K (float32 in
// float64, exactly, rounded once; float64 with fused multiply-adds).
func (r *gemmRun[S, T]) directTask(w int, t gemmTask) {
	g, acc := r.g, r.bufs[w].acc[:t.n1-t.n0]
	aBase, bBase := g.a.batch[t.b], g.b.batch[t.b]
	_, f32 := any(r.c).([]float32)
	bcols := g.b.cols[t.n0:t.n1]
	for i := t.m0; i < t.m1; i++ {
		clear(acc)
		ar := aBase + g.a.rows[i]
		for p := 0; p < g.k; p++ {
			av := float64(r.a[ar+g.a.cols[p]])
			br := bBase + g.b.rows[p]
			if f32 {
				for j, c := range bcols {
					acc[j] += av * float64(r.b[br+c])
				}
			} else {
				for j, c := range bcols {
					acc[j] = math.FMA(av, float64(r.b[br+c]), acc[j])
				}
			}
		}
		out := r.c[t.b*g.m*g.n+i*g.n+t.n0:][:len(acc)]
		for j, v := range acc {
			out[j] = T(v)
		}
	}
}
