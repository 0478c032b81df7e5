package cpu

import (
	"math"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// reduction is a fused reduce_sum/max/min over trailing axes: the operand
// (a kernel register) is viewed as rows × inner, each row reducing into one
// output element. Floats accumulate in float64 and integers in int64, as
// the reference evaluator does; sums wrap like the evaluator's.
type reduction struct {
	kind        foldKind
	opnd        loc
	dt          ir.DType
	rows, inner int
	slot        int
	aval        ir.Aval
	// acc folds a block of the operand into the frame's partials.
	acc func(fr *frame, n int)
}

// nativeReduce reports whether the fused kernels reduce e: a numeric
// operand reduced over trailing axes (all axes included).
func nativeReduce(e *ir.Eqn) bool {
	if len(e.In) != 1 || len(e.Out) != 1 {
		return false
	}
	t := e.In[0].Type()
	if t.DType == ir.Bool || !eval.ValidDType(t.DType) {
		return false
	}
	axes, ok := e.Params["axes"].([]int)
	if !ok {
		return false
	}
	s := slices.Clone(axes)
	slices.Sort(s)
	for i, a := range s {
		if a != len(t.Shape)-len(s)+i {
			return false
		}
	}
	return slices.Equal(e.Out[0].Aval.Shape, t.Shape[:len(t.Shape)-len(s)])
}

// reduction builds the fused reduction of e (nativeReduce(e) holds).
func (b *kbuilder) reduction(e *ir.Eqn) (*reduction, error) {
	l, err := b.operand(e.In[0])
	if err != nil {
		return nil, err
	}
	out := e.Out[0]
	r := &reduction{kind: foldKindOf(e.Prim), opnd: l, dt: e.In[0].Type().DType, slot: b.c.slots[out], aval: out.Aval}
	r.rows = out.Aval.Size()
	if r.rows > 0 {
		r.inner = b.k.n / r.rows
	}
	switch l.c {
	case cF32:
		r.acc = accFloat(regF32, l.reg, r)
	case cF64:
		r.acc = accFloat(regF64, l.reg, r)
	case cI32:
		r.acc = accInt(regI32, l.reg, r)
	case cI64:
		r.acc = accInt(regI64, l.reg, r)
	default:
		return nil, errUnfusable
	}
	return r, nil
}

// isFloat reports whether the reduction accumulates floats.
func (r *reduction) isFloat() bool { return r.opnd.c == cF32 || r.opnd.c == cF64 }

// initF returns the float identity of the reduction.
func (r *reduction) initF() float64 {
	switch r.kind {
	case foldMax:
		return math.Inf(-1)
	case foldMin:
		return math.Inf(1)
	}
	return 0
}

// initI returns the integer identity of the reduction for its dtype.
func (r *reduction) initI() int64 {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if r.dt == ir.Int32 {
		lo, hi = math.MinInt32, math.MaxInt32
	}
	switch r.kind {
	case foldMax:
		return lo
	case foldMin:
		return hi
	}
	return 0
}

// begin prepares fr's partials for the chunk [lo, hi).
func (r *reduction) begin(fr *frame, lo, hi int) {
	fr.row0 = lo / r.inner
	nr := (hi+r.inner-1)/r.inner - fr.row0
	if r.isFloat() {
		fr.acc = grow(fr.acc, nr)
		fillN(fr.acc, r.initF())
	} else {
		fr.accI = grow(fr.accI, nr)
		fillN(fr.accI, r.initI())
	}
}

// accumulate folds the current block (n elements at fr.lo) into fr's partials.
func (r *reduction) accumulate(fr *frame, n int) { r.acc(fr, n) }

// grow returns s resized to n, reusing its storage when large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// foldKind is the operation that combines a reduction's elements.
type foldKind uint8

const (
	foldSum foldKind = iota
	foldMax
	foldMin
)

// foldKindOf returns the operation of reduce_sum, reduce_max or reduce_min.
func foldKindOf(prim string) foldKind {
	switch prim {
	case ir.ReduceMax:
		return foldMax
	case ir.ReduceMin:
		return foldMin
	}
	return foldSum
}

// fold combines two partial results.
func fold[A float64 | int64](k foldKind, s, x A) A {
	switch k {
	case foldSum:
		return s + x
	case foldMax:
		return max(s, x)
	}
	return min(s, x)
}

// accFloat builds the float accumulation of a block into fr.acc.
func accFloat[T float32 | float64](g func(*frame) [][]T, reg int, r *reduction) func(fr *frame, n int) {
	return func(fr *frame, n int) { accBlock(r.kind, fr.acc, g(fr)[reg][:n], fr.lo, r.inner, fr.row0) }
}

// accInt builds the integer accumulation of a block into fr.accI.
func accInt[T int32 | int64](g func(*frame) [][]T, reg int, r *reduction) func(fr *frame, n int) {
	return func(fr *frame, n int) { accBlock(r.kind, fr.accI, g(fr)[reg][:n], fr.lo, r.inner, fr.row0) }
}

// accBlock folds the block v, whose first element has flat index lo, into
// the partials acc of rows row0, row0+1, ... (inner elements a row). The
// operation is chosen once per row segment, outside the element loop.
func accBlock[T number, A float64 | int64](k foldKind, acc []A, v []T, lo, inner, row0 int) {
	for i := 0; i < len(v); {
		row := (lo + i) / inner
		j := min(len(v), (row+1)*inner-lo)
		s := acc[row-row0]
		switch k {
		case foldSum:
			for _, x := range v[i:j] {
				s += A(x)
			}
		case foldMax:
			for _, x := range v[i:j] {
				s = max(s, A(x))
			}
		default:
			for _, x := range v[i:j] {
				s = min(s, A(x))
			}
		}
		acc[row-row0] = s
		i = j
	}
}

// combine folds each of frames' partials (part) into final, in order.
func combine[A float64 | int64](k foldKind, final []A, frames []*frame, part func(*frame) []A) {
	for _, fr := range frames {
		for i, v := range part(fr) {
			final[fr.row0+i] = fold(k, final[fr.row0+i], v)
		}
	}
}

// finish combines the nc frames' partials in order and stores the result.
func (r *reduction) finish(sc *kscratch, nc int, out *ir.Buffer) {
	frames := sc.frames[:nc]
	if r.isFloat() {
		sc.final = grow(sc.final, r.rows)
		fillN(sc.final, r.initF())
		combine(r.kind, sc.final, frames, func(fr *frame) []float64 { return fr.acc })
		switch d := out.Data.(type) {
		case []float32:
			storeF32(r.dt)(d, sc.final)
		case []float64:
			copy(d, sc.final)
		}
		return
	}
	sc.finalI = grow(sc.finalI, r.rows)
	fillN(sc.finalI, r.initI())
	combine(r.kind, sc.finalI, frames, func(fr *frame) []int64 { return fr.accI })
	switch d := out.Data.(type) {
	case []int32:
		for i, v := range sc.finalI {
			d[i] = int32(v)
		}
	case []int64:
		copy(d, sc.finalI)
	}
}
