package cpu

import (
	"fmt"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit/ir"
)

// op computes one equation of a fused kernel on the first n elements of
// its frame's registers.
type op func(fr *frame, n int)

// loc is a value's register in a kernel: its class and index, and
// whether it is a scalar register (one value broadcast over the block).
type loc struct {
	c      class
	reg    int
	scalar bool
}

// binding ties a register to the value it views or is filled from: an
// input's or output's slot, or a literal. A view with a period reads the
// element at offset i modulo period for element i (the operand of an
// epilogue's broadcast, whose chunks never cross a multiple of period).
type binding struct {
	loc
	src    ref
	period int
}

// kernel is a fused elementwise chain, optionally ending in a reduction,
// run block by block over n elements.
type kernel struct {
	self     int
	n        int
	outSlots []int
	outAvals []ir.Aval
	views    []binding
	scalars  []binding
	// owned lists the registers with their own storage (temporaries and
	// scalars); nreg counts all registers of each class.
	owned []loc
	nreg  [nClasses]int
	ops   []op
	// cost is the estimated per-element work (for the parallel decision).
	cost int
	red  *reduction
	// eqns is the number of fused equations (for the listing and tests).
	eqns int
}

// kscratch is a kernel's per-state scratch: one frame per worker, the
// state (for the workers to read its slots), chunk bounds, and the
// reduction's combined accumulators.
type kscratch struct {
	k      *kernel
	frames []*frame
	st     *state
	bounds []int
	// next is the next chunk an elementwise kernel's worker takes.
	next   atomic.Int64
	wg     join
	panics []any
	final  []float64
	finalI []int64
}

// scratchOf returns the kernel's scratch in st, creating it on first use.
func (k *kernel) scratchOf(st *state) *kscratch {
	sc, _ := st.scratch[k.self].(*kscratch)
	if sc == nil {
		sc = &kscratch{k: k, st: st}
		st.scratch[k.self] = sc
	}
	return sc
}

// frame returns worker w's frame, allocating it on first use.
func (k *kernel) frame(sc *kscratch, w int) *frame {
	for len(sc.frames) <= w {
		sc.frames = append(sc.frames, nil)
	}
	fr := sc.frames[w]
	if fr == nil {
		fr = newFrame(k.nreg, blockSize)
		for _, l := range k.owned {
			fr.own(l.c, l.reg, blockSize)
		}
		sc.frames[w] = fr
	}
	return fr
}

// run binds the kernel's buffers, runs its chunks (on the calling
// goroutine, or split over the pool for large work) and stores a
// reduction's result.
func (k *kernel) run(st *state) error {
	var rb *ir.Buffer
	if k.red != nil {
		rb = st.dest(k.red.slot, k.red.aval)
		st.env[k.red.slot] = rb
	}
	w := 1
	if parallelFor(k.n, k.cost) {
		w = workers()
	}
	sc := k.scratchOf(st)
	sc.bounds = k.chunks(sc.bounds[:0], w)
	nc := max(len(sc.bounds)-1, 0) // no bounds at all when k.n == 0
	nw := min(w, nc)
	k.prepare(st, nw)
	sc.next.Store(0)
	if nw == 1 {
		k.work(sc, 0)
	} else if nw > 1 {
		dispatch(sc, &sc.wg, nw)
	}
	if err := k.failed(sc, nw); err != nil {
		return err
	}
	if k.red != nil {
		k.red.finish(sc, nw, rb)
	}
	return nil
}

// prepare binds the kernel's outputs in st and allocates the frames of nw
// workers (here, on the calling goroutine), for run or for a matrix
// product that runs the kernel as its epilogue.
func (k *kernel) prepare(st *state, nw int) *kscratch {
	sc := k.scratchOf(st)
	for j, s := range k.outSlots {
		st.env[s] = st.dest(s, k.outAvals[j])
	}
	for i := 0; i < nw; i++ {
		k.frame(sc, i)
	}
	if len(sc.panics) < nw {
		sc.panics = make([]any, nw)
	}
	return sc
}

// failed returns the error of a panic in the chunks of any of nw workers.
func (k *kernel) failed(sc *kscratch, nw int) error {
	for i := 0; i < nw; i++ {
		if p := sc.panics[i]; p != nil {
			clear(sc.panics)
			return fmt.Errorf("cpu: internal error in a fused kernel (please report): %v", p)
		}
	}
	return nil
}

// work runs worker w's share of the kernel's current run.
func (sc *kscratch) work(w int) { sc.k.work(sc, w) }

// work is worker w's share of a run. An elementwise kernel's workers take
// chunks from a shared counter until none is left, so a worker that the OS
// delays (on a loaded machine) holds up little; a reduction's worker w runs
// chunk w, whose rows its frame accumulates.
func (k *kernel) work(sc *kscratch, w int) {
	if k.red != nil {
		k.runChunk(sc, w, sc.bounds[w], sc.bounds[w+1])
		return
	}
	for {
		c := int(sc.next.Add(1)) - 1
		if c >= len(sc.bounds)-1 {
			return
		}
		k.runChunk(sc, w, sc.bounds[c], sc.bounds[c+1])
	}
}

// chunks appends the boundaries of the chunks covering [0, n) for w
// workers: chunksPerWorker×w block multiples for an elementwise kernel, at
// most w for a reduction (whole output rows when there are enough rows).
func (k *kernel) chunks(b []int, w int) []int {
	if k.n == 0 {
		return b
	}
	unit, parts := blockSize, w
	if k.red == nil && w > 1 {
		parts = chunksPerWorker * w
	}
	if k.red != nil && k.red.rows >= w {
		unit = k.red.inner
	}
	units := (k.n + unit - 1) / unit
	per := (units + parts - 1) / parts
	b = append(b, 0)
	for lo := 0; lo < k.n; {
		hi := min(k.n, lo+per*unit)
		b = append(b, hi)
		lo = hi
	}
	return b
}

// runChunk runs the kernel over [lo, hi) with worker w's frame.
func (k *kernel) runChunk(sc *kscratch, w, lo, hi int) {
	defer func() {
		if p := recover(); p != nil {
			sc.panics[w] = p
		}
	}()
	fr := sc.frames[w]
	m := min(blockSize, hi-lo)
	for _, s := range k.scalars {
		fr.fill(s.c, s.reg, sc.st.get(s.src).Data, m)
	}
	if k.red != nil {
		k.red.begin(fr, lo, hi)
	}
	for b := lo; b < hi; b += blockSize {
		e := min(b+blockSize, hi)
		fr.lo = b
		for _, v := range k.views {
			lo := b
			if v.period > 0 {
				lo = b % v.period
			}
			fr.view(v.c, v.reg, sc.st.get(v.src).Data, lo, lo+e-b)
		}
		for _, o := range k.ops {
			o(fr, e-b)
		}
		if k.red != nil {
			k.red.accumulate(fr, e-b)
		}
	}
	for _, v := range k.views {
		fr.view(v.c, v.reg, nil, 0, 0)
	}
}
