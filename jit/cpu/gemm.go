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
// element of C is the sum over kc-long chunks of K, in order; each chunk
// is accumulated from zero with fused multiply-adds in order and added to
// the element in one rounding, so an element's value has passed through
// at most min(K, kc) + ⌈K/kc⌉ - 1 roundings of the compute type. kc
// depends only on the compute type, never on the micro-kernel, so the
// assembly and Go kernels agree bit for bit. The direct loops accumulate float32 products
// in float64 (the products are exact there) and round once; float64 ones
// chain fused multiply-adds over all of K.

// blocking is the cache blocking of one compute type.
type blocking struct{ mc, kc, nc int }

// The block sizes: an A block of mc×kc is about 144 KiB (L2 is 512 KiB on
// Zen 3, 2 MiB on the AVX-512 Xeon measured), a B micro-panel kc×nr 32 KiB
// or less (L1 32 or 48 KiB), and a B panel kc×nc 4 or 8 MiB (L3). mc and
// nc are rounded down to the kernel's mr and nr. On the Xeon, mc from 48
// to 576, kc 256 to 512 and nc 256 to 4096 moved a one-core 1024² f32
// product by at most 4 %, within the noise (bench/RESULTS.md), so the
// blocks stay those of Zen 3; kc, which fixes the summation order, stays
// 256.
var (
	blockingF32 = blocking{mc: 144, kc: 256, nc: 4096}
	blockingF64 = blocking{mc: 72, kc: 256, nc: 4096}
)

// directWork is the m·n·k below which a product takes the direct loops.
const directWork = 24 * 24 * 24

// gemmParallelWork is the m·n·k (over all batches) above which a product
// is split over the workers: about 2 MFLOP, some 25 µs on one core, where
// the fork and join (a few µs per phase) starts to pay.
const gemmParallelWork = 1 << 20

// gemmSplitCols is the fewest output columns per worker for which a
// product of few batches is split by columns, each worker packing its own
// columns of B and all of A, rather than sharing packed panels of B: A is
// then packed once per worker, which costs little once a worker's columns
// are several micro-panels, and the workers never wait for each other
// within the product. On the 2-core Zen 4 measured (bench/RESULTS.md) this
// was 7–20 % faster than sharing from 128² to 2048² and on the
// transformer shape.
const gemmSplitCols = 64

// gemmTask is a unit of work: rows [m0, m1) and columns [n0, n1) of batch
// b's output.
type gemmTask struct{ b, m0, m1, n0, n1 int }

// gemmPlan is a product's compile-time part: C[b] (m×n, row-major, the
// batches one after another) = A[b] (m×k) · B[b] (k×n), the operands read
// through their views; S is the operands' element type, T the compute
// type (C's).
//
// Over several workers a product runs in one of three ways. With at least
// two batches per worker (or on the direct loops) each task is a whole
// batch (or a range of rows of one) that a worker computes alone, packing
// its own panels. A product of fewer batches whose output has at least
// gemmSplitCols columns per worker is cut into one column range per
// worker, each packing its own columns of B and all of A. Otherwise the
// workers share each packed kc×nc panel of B: the calling goroutine
// dispatches, for each panel, first its packing (split into runs of
// micro-panels) and then the mc-row blocks of A (each worker packs its
// block, split into column ranges when there are too few blocks), one
// fork and join after the other, so that no task ever waits for another
// and the pool stays deadlock free.
type gemmPlan[S, T float32 | float64] struct {
	batch, m, n, k int
	a, b           matView
	kern           microKernel[T]
	blk            blocking
	direct         bool
	// shared selects the shared-panel way (see above); tasks are the
	// tasks of the other.
	shared bool
	tasks  []gemmTask
	nw     int
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
	g.nw = nw
	g.shared = nw > 1 && !g.direct && batch < 2*nw && !g.splitsCols(nw)
	if !g.shared {
		g.tasks = g.split(nw)
	}
	return g
}

// splitsCols reports whether a product of few batches over nw workers is
// cut into one column range per worker (see gemmSplitCols).
func (g *gemmPlan[S, T]) splitsCols(nw int) bool {
	return !g.direct && g.n >= gemmSplitCols*nw
}

// split cuts the output into tasks of the direct loops or of whole
// batches: whole batches when there are enough; for the packed loops on
// wide outputs, column ranges of each batch (multiples of nr), one per
// worker; else row ranges (at least 8 rows) and then column ranges (at
// least 64 columns), about two tasks per worker so that a worker the OS
// delays holds up little.
func (g *gemmPlan[S, T]) split(nw int) []gemmTask {
	want := 1
	if nw > 1 {
		want = 2 * nw
	}
	mParts, nParts := 1, 1
	switch {
	case g.batch >= want:
	case g.splitsCols(nw):
		nParts = (nw + g.batch - 1) / g.batch
	default:
		per := (want + g.batch - 1) / g.batch
		mParts = max(1, min(per, g.m/8))
		nParts = max(1, min((per+mParts-1)/mParts, g.n/64))
	}
	mStep := (g.m + mParts - 1) / mParts
	nStep := (g.n + nParts - 1) / nParts
	if !g.direct && nParts > 1 {
		nStep = roundUp(nStep, g.kern.nr) // whole micro-panels
	}
	var ts []gemmTask
	for b := 0; b < g.batch; b++ {
		for m0 := 0; m0 < g.m || m0 == 0; m0 += max(1, mStep) {
			for n0 := 0; n0 < g.n || n0 == 0; n0 += max(1, nStep) {
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
	switch {
	case g.shared:
		split = fmt.Sprintf("B panels packed and shared by %d goroutines", g.nw)
	case g.nw > 1:
		split = fmt.Sprintf("%d tasks over %d goroutines", len(g.tasks), g.nw)
	}
	return fmt.Sprintf("%s: %s, %s", shape, how, split)
}

// epilogue runs fused elementwise work on rows [r0, r1) × columns [c0,
// c1) of batch b's output once they are final, on worker w.
type epilogue func(w, b, r0, r1, c0, c1 int)

// gemmPhase is what a run's workers do when dispatched.
type gemmPhase int

const (
	phaseTasks   gemmPhase = iota // the plan's tasks, each alone
	phasePackB                    // pack runs of micro-panels of the shared B panel
	phaseCompute                  // multiply blocks of A by the shared B panel
)

// blockTask is a unit of phaseCompute: rows [ic, ic+mc) of the current
// batch times columns [j0, j1) of the shared panel (multiples of nr).
type blockTask struct{ ic, mc, j0, j1 int }

// gemmRun is one execution of a plan: the operands, the output, per
// worker its buffers, and the shared panel's state.
type gemmRun[S, T float32 | float64] struct {
	g    *gemmPlan[S, T]
	a, b []S
	c    []T
	// c64 holds a float64 result stored as float32 until it is rounded.
	c64  []T
	epi  epilogue
	bufs []*gemmWork[T]
	// The shared way's state: the panel (batch b, columns jc.., rows
	// pc..), its packed data and the phase's units.
	phase      gemmPhase
	b0, jc, nc int
	pc, kc     int
	bp         []T
	packRuns   int
	blocks     []blockTask
	next       atomic.Int64
	wg         join
	mu         sync.Mutex
	err        any
}

// gemmWork is one worker's packing buffers, the edge tile and the direct
// loops' accumulators.
type gemmWork[T float32 | float64] struct {
	ap, bp, tile []T
	acc          []float64
}

// newRun allocates a run's buffers.
func (g *gemmPlan[S, T]) newRun() *gemmRun[S, T] {
	r := &gemmRun[S, T]{g: g}
	kc := min(g.blk.kc, g.k)
	bpLen := roundUp(min(g.blk.nc, g.n), g.kern.nr) * kc
	for range g.nw {
		w := &gemmWork[T]{}
		if g.direct {
			w.acc = make([]float64, g.n)
		} else {
			w.ap = make([]T, roundUp(min(g.blk.mc, g.m), g.kern.mr)*kc)
			w.tile = make([]T, g.kern.mr*g.kern.nr)
			if !g.shared {
				w.bp = make([]T, bpLen)
			}
		}
		r.bufs = append(r.bufs, w)
	}
	if g.shared {
		r.bp = make([]T, bpLen)
	}
	return r
}

// run computes c = a·b (and the epilogue) over the plan's workers.
func (r *gemmRun[S, T]) run(a, b []S, c []T, epi epilogue) error {
	r.a, r.b, r.c, r.epi = a, b, c, epi
	defer func() { r.a, r.b, r.c, r.epi = nil, nil, nil, nil }()
	if r.g.shared {
		r.runShared()
	} else {
		r.dispatch(phaseTasks)
	}
	if p := r.err; p != nil {
		r.err = nil
		return fmt.Errorf("cpu: internal error in a matrix product (please report): %v", p)
	}
	return nil
}

// dispatch runs one phase on the plan's workers and waits for it.
func (r *gemmRun[S, T]) dispatch(p gemmPhase) {
	r.phase = p
	r.next.Store(0)
	if r.g.nw == 1 {
		r.work(0)
	} else {
		dispatch(r, &r.wg, r.g.nw)
	}
}

// runShared runs the shared-panel way: per batch, nc-column block and
// kc-row panel of B, the panel's packing, then its blocks of A.
func (r *gemmRun[S, T]) runShared() {
	g := r.g
	for b := 0; b < g.batch && r.err == nil; b++ {
		for jc := 0; jc < g.n && r.err == nil; jc += g.blk.nc {
			r.b0, r.jc, r.nc = b, jc, min(g.blk.nc, g.n-jc)
			if g.k == 0 {
				r.zero(0, b, 0, g.m, jc, jc+r.nc)
				continue
			}
			r.blocks = r.blockTasks()
			for pc := 0; pc < g.k && r.err == nil; pc += g.blk.kc {
				r.pc, r.kc = pc, min(g.blk.kc, g.k-pc)
				r.packRuns = min((r.nc+g.kern.nr-1)/g.kern.nr, 2*g.nw)
				r.dispatch(phasePackB)
				if r.err == nil {
					r.dispatch(phaseCompute)
				}
			}
		}
	}
}

// blockTasks cuts the current nc columns times all rows into about two
// tasks per worker: blocks of at most mc rows (fewer rows, multiples of mr,
// when there are few), each split into column ranges (multiples of nr)
// only when the rows alone cannot make enough tasks (each such range packs
// its block of A again). The blocks are a whole number of rounds of the
// workers and share the rows' mr-row tiles evenly (1024 rows are eight
// blocks of 10 or 11 tiles, not seven of 144 rows and one of 16, which
// left one worker a block more than the other).
func (r *gemmRun[S, T]) blockTasks() []blockTask {
	g := r.g
	mr, want := g.kern.mr, 2*g.nw
	mc := min(g.blk.mc, roundUp((g.m+want-1)/want, mr))
	tiles := (g.m + mr - 1) / mr
	rows := (tiles + mc/mr - 1) / (mc / mr)
	if rows > 1 {
		rows = min(tiles, roundUp(rows, g.nw))
	}
	panels := (r.nc + g.kern.nr - 1) / g.kern.nr
	splits := max(1, min(panels, (want+rows-1)/rows))
	per := (panels + splits - 1) / splits * g.kern.nr
	var ts []blockTask
	for i := range rows {
		ic, ic1 := i*tiles/rows*mr, min(g.m, (i+1)*tiles/rows*mr)
		for j0 := 0; j0 < r.nc; j0 += per {
			ts = append(ts, blockTask{ic: ic, mc: ic1 - ic, j0: j0, j1: min(r.nc, j0+per)})
		}
	}
	return ts
}

// work is worker w's share of the current phase: units taken from a
// shared counter.
func (r *gemmRun[S, T]) work(w int) {
	defer func() {
		if p := recover(); p != nil {
			r.mu.Lock()
			r.err = p
			r.mu.Unlock()
		}
	}()
	g := r.g
	for {
		i := int(r.next.Add(1)) - 1
		switch r.phase {
		case phaseTasks:
			if i >= len(g.tasks) {
				return
			}
			t := g.tasks[i]
			if g.direct {
				r.directTask(w, t)
				if r.epi != nil && t.m1 > t.m0 {
					r.epi(w, t.b, t.m0, t.m1, t.n0, t.n1)
				}
			} else {
				r.packedTask(w, t)
			}
		case phasePackB:
			if i >= r.packRuns {
				return
			}
			nr := g.kern.nr
			panels := (r.nc + nr - 1) / nr
			q0, q1 := i*panels/r.packRuns, (i+1)*panels/r.packRuns
			c0, c1 := r.jc+q0*nr, min(r.jc+r.nc, r.jc+q1*nr)
			packB(r.bp[q0*nr*r.kc:], r.b, g.b.batch[r.b0], g.b.rows[r.pc:r.pc+r.kc], g.b.cols[c0:c1], nr, g.b.rowsUnit, g.b.colsUnit)
		case phaseCompute:
			if i >= len(r.blocks) {
				return
			}
			t, ws := r.blocks[i], r.bufs[w]
			packA(ws.ap, r.a, g.a.batch[r.b0], g.a.rows[t.ic:t.ic+t.mc], g.a.cols[r.pc:r.pc+r.kc], g.kern.mr, g.a.rowsUnit, g.a.colsUnit)
			cBase := r.b0*g.m*g.n + t.ic*g.n + r.jc
			r.macro(ws, ws.ap, r.bp, r.kc, t.mc, t.j0, t.j1, cBase, r.pc > 0)
			if r.epi != nil && r.pc+r.kc == g.k {
				r.epi(w, r.b0, t.ic, t.ic+t.mc, r.jc+t.j0, r.jc+t.j1)
			}
		}
	}
}

// zero sets rows [r0, r1) × columns [c0, c1) of batch b's output to zero
// (a product over no terms) and runs the epilogue on them.
func (r *gemmRun[S, T]) zero(w, b, r0, r1, c0, c1 int) {
	g := r.g
	for i := r0; i < r1; i++ {
		clear(r.c[(b*g.m+i)*g.n+c0:][:c1-c0])
	}
	if r.epi != nil && r1 > r0 {
		r.epi(w, b, r0, r1, c0, c1)
	}
}

// packedTask runs the blocked loops over one task with the worker's own
// panels.
func (r *gemmRun[S, T]) packedTask(w int, t gemmTask) {
	g, ws := r.g, r.bufs[w]
	mr, nr := g.kern.mr, g.kern.nr
	aBase, bBase, cBase := g.a.batch[t.b], g.b.batch[t.b], t.b*g.m*g.n
	for jc := t.n0; jc < t.n1; jc += g.blk.nc {
		nc := min(g.blk.nc, t.n1-jc)
		if g.k == 0 {
			r.zero(w, t.b, t.m0, t.m1, jc, jc+nc)
		}
		for pc := 0; pc < g.k; pc += g.blk.kc {
			kc := min(g.blk.kc, g.k-pc)
			packB(ws.bp, r.b, bBase, g.b.rows[pc:pc+kc], g.b.cols[jc:jc+nc], nr, g.b.rowsUnit, g.b.colsUnit)
			for ic := t.m0; ic < t.m1; ic += g.blk.mc {
				mc := min(g.blk.mc, t.m1-ic)
				packA(ws.ap, r.a, aBase, g.a.rows[ic:ic+mc], g.a.cols[pc:pc+kc], mr, g.a.rowsUnit, g.a.colsUnit)
				r.macro(ws, ws.ap, ws.bp, kc, mc, 0, nc, cBase+ic*g.n+jc, pc > 0)
				if r.epi != nil && pc+kc == g.k {
					r.epi(w, t.b, ic, ic+mc, jc, jc+nc)
				}
			}
		}
	}
}

// macro multiplies a packed mc×kc block of A by columns [j0, j1) (j0 a
// multiple of nr) of a packed kc-row panel of B into C at c0 (row stride
// n), tile by tile; edge tiles go through the worker's tile buffer.
func (r *gemmRun[S, T]) macro(ws *gemmWork[T], ap, bp []T, kc, mc, j0, j1, c0 int, accum bool) {
	g := r.g
	mr, nr, ldc := g.kern.mr, g.kern.nr, g.n
	for jr := j0; jr < j1; jr += nr {
		bq := bp[jr*kc : (jr+nr)*kc]
		nw := min(nr, j1-jr)
		for ir := 0; ir < mc; ir += mr {
			aq := ap[ir*kc : (ir+mr)*kc]
			mw := min(mr, mc-ir)
			at := c0 + ir*ldc + jr
			if mw == mr && nw == nr {
				g.kern.run(kc, aq, bq, r.c[at:at+(mr-1)*ldc+nr], ldc, accum)
				continue
			}
			g.kern.run(kc, aq, bq, ws.tile, nr, false)
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
