package cpu

import (
	"math"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// reduction is a fused reduce_sum/max/min over trailing axes: the operand
// (a kernel register) is viewed as rows × inner, each row reducing into one
// output element. Floats accumulate in float64 and integers in int64, as
// the reference evaluator does; sums wrap like the evaluator's.
type reduction struct {
	prim        string
	opnd        loc
	dt          ir.DType
	rows, inner int
	slot        int
	aval        ir.Aval
	// accumulate folds a block of the operand into the frame's partials.
	acc func(fr *frame, n int)
}

// nativeReduce reports whether the fused kernels reduce e: a numeric
// operand reduced over trailing axes (all axes included).
func nativeReduce(e *ir.Eqn) bool {
	if len(e.In) != 1 || len(e.Out) != 1 {
		return false
	}
	t := e.In[0].Type()
	if t.DType == ir.Bool || !validDType(t.DType) {
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
	r := &reduction{prim: e.Prim, opnd: l, dt: e.In[0].Type().DType, slot: b.c.slots[out], aval: out.Aval}
	r.rows = out.Aval.Size()
	if r.rows > 0 {
		r.inner = b.k.n / r.rows
	}
	switch l.c {
	case cF32:
		r.acc = accFloat(regF32, l.reg, e.Prim, r)
	case cF64:
		r.acc = accFloat(regF64, l.reg, e.Prim, r)
	case cI32:
		r.acc = accInt(regI32, l.reg, e.Prim, r)
	case cI64:
		r.acc = accInt(regI64, l.reg, e.Prim, r)
	default:
		return nil, errUnfusable
	}
	return r, nil
}

// isFloat reports whether the reduction accumulates floats.
func (r *reduction) isFloat() bool { return r.opnd.c == cF32 || r.opnd.c == cF64 }

// initF returns the float identity of the reduction.
func (r *reduction) initF() float64 {
	switch r.prim {
	case ir.ReduceMax:
		return math.Inf(-1)
	case ir.ReduceMin:
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
	switch r.prim {
	case ir.ReduceMax:
		return lo
	case ir.ReduceMin:
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

// segments calls f(row index relative to row0, i, j) for each run [i, j)
// of the block [lo, lo+n) that falls in one output row.
func segments(lo, n, inner, row0 int, f func(row, i, j int)) {
	for i := 0; i < n; {
		row := (lo + i) / inner
		j := min(n, (row+1)*inner-lo)
		f(row-row0, i, j)
		i = j
	}
}

// accFloat builds the float accumulation of a block.
func accFloat[T float32 | float64](g func(*frame) [][]T, reg int, prim string, r *reduction) func(fr *frame, n int) {
	switch prim {
	case ir.ReduceSum:
		return func(fr *frame, n int) {
			v := g(fr)[reg][:n]
			for i := 0; i < n; {
				row := (fr.lo + i) / r.inner
				j := min(n, (row+1)*r.inner-fr.lo)
				s := fr.acc[row-fr.row0]
				for _, x := range v[i:j] {
					s += float64(x)
				}
				fr.acc[row-fr.row0] = s
				i = j
			}
		}
	case ir.ReduceMax:
		return func(fr *frame, n int) {
			v := g(fr)[reg][:n]
			segments(fr.lo, n, r.inner, fr.row0, func(row, i, j int) {
				s := fr.acc[row]
				for _, x := range v[i:j] {
					s = max(s, float64(x))
				}
				fr.acc[row] = s
			})
		}
	}
	return func(fr *frame, n int) {
		v := g(fr)[reg][:n]
		segments(fr.lo, n, r.inner, fr.row0, func(row, i, j int) {
			s := fr.acc[row]
			for _, x := range v[i:j] {
				s = min(s, float64(x))
			}
			fr.acc[row] = s
		})
	}
}

// accInt builds the integer accumulation of a block.
func accInt[T int32 | int64](g func(*frame) [][]T, reg int, prim string, r *reduction) func(fr *frame, n int) {
	return func(fr *frame, n int) {
		v := g(fr)[reg][:n]
		for i := 0; i < n; {
			row := (fr.lo + i) / r.inner
			j := min(n, (row+1)*r.inner-fr.lo)
			s := fr.accI[row-fr.row0]
			switch prim {
			case ir.ReduceSum:
				for _, x := range v[i:j] {
					s += int64(x)
				}
			case ir.ReduceMax:
				for _, x := range v[i:j] {
					s = max(s, int64(x))
				}
			default:
				for _, x := range v[i:j] {
					s = min(s, int64(x))
				}
			}
			fr.accI[row-fr.row0] = s
			i = j
		}
	}
}

// finish combines the nc frames' partials in order and stores the result.
func (r *reduction) finish(sc *kscratch, nc int, out *ir.Buffer) {
	if r.isFloat() {
		sc.final = grow(sc.final, r.rows)
		fillN(sc.final, r.initF())
		for w := 0; w < nc; w++ {
			fr := sc.frames[w]
			for i, v := range fr.acc {
				f := &sc.final[fr.row0+i]
				switch r.prim {
				case ir.ReduceSum:
					*f += v
				case ir.ReduceMax:
					*f = max(*f, v)
				default:
					*f = min(*f, v)
				}
			}
		}
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
	for w := 0; w < nc; w++ {
		fr := sc.frames[w]
		for i, v := range fr.accI {
			f := &sc.finalI[fr.row0+i]
			switch r.prim {
			case ir.ReduceSum:
				*f += v
			case ir.ReduceMax:
				*f = max(*f, v)
			default:
				*f = min(*f, v)
			}
		}
	}
	switch d := out.Data.(type) {
	case []int32:
		for i, v := range sc.finalI {
			d[i] = int32(v)
		}
	case []int64:
		copy(d, sc.finalI)
	}
}
