package cpu

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// dotStep runs a float dot_general as a batched matrix product (gemm.go)
// writing its result's slot, then an optional fused epilogue.
type dotStep struct {
	eqn  *ir.Eqn
	self int
	in   [2]ref
	out  int
	aval ir.Aval
	prod matProduct
	// epi is the fused kernel of the elementwise consumers (nil without).
	epi *kernel
}

// matProduct is a compiled matrix product of one operand and compute type.
type matProduct interface {
	// exec computes c = a·b; epi (if not nil) runs on each final block of
	// the output.
	exec(st *state, self int, a, b, c *ir.Buffer, epi epilogue) error
	// dims returns the rows and columns of one batch of the output.
	dims() (m, n int)
	// workers is the number of workers the product runs on.
	workers() int
	describe() string
}

// dotViews maps a dot_general's operands onto batched matrices: the batch
// dimensions (in order) index the batch, the lhs free dimensions the rows
// of A, the contracting dimensions (in pairs) A's columns and B's rows,
// and the rhs free dimensions B's columns, each flattened row-major as
// the output's dimensions are. It reports false for dimension numbers
// that are not valid (the evaluator then reports the error).
func dotViews(ls, rs []int, d ir.DotDims) (batch, m, n, k int, a, b matView, ok bool) {
	if !validDims(ls, rs, d) {
		return 0, 0, 0, 0, matView{}, matView{}, false
	}
	lFree, rFree := d.LhsFree(len(ls)), d.RhsFree(len(rs))
	a = newMatView(axisOffsets(ls, d.LhsBatch), axisOffsets(ls, lFree), axisOffsets(ls, d.LhsContract))
	b = newMatView(axisOffsets(rs, d.RhsBatch), axisOffsets(rs, d.RhsContract), axisOffsets(rs, rFree))
	return len(a.batch), len(a.rows), len(b.cols), len(a.cols), a, b, true
}

// validDims reports whether dot dimension numbers are in range, distinct
// and pair dimensions of equal sizes.
func validDims(ls, rs []int, d ir.DotDims) bool {
	if len(d.LhsBatch) != len(d.RhsBatch) || len(d.LhsContract) != len(d.RhsContract) {
		return false
	}
	distinct := func(rank int, lists ...[]int) bool {
		seen := make([]bool, rank)
		for _, l := range lists {
			for _, x := range l {
				if x < 0 || x >= rank || seen[x] {
					return false
				}
				seen[x] = true
			}
		}
		return true
	}
	if !distinct(len(ls), d.LhsBatch, d.LhsContract) || !distinct(len(rs), d.RhsBatch, d.RhsContract) {
		return false
	}
	for i := range d.LhsBatch {
		if ls[d.LhsBatch[i]] != rs[d.RhsBatch[i]] {
			return false
		}
	}
	for i := range d.LhsContract {
		if ls[d.LhsContract[i]] != rs[d.RhsContract[i]] {
			return false
		}
	}
	return true
}

// axisOffsets enumerates, row-major over the listed axes of a row-major
// array of this shape, the element offset of each index combination.
func axisOffsets(shape, axes []int) []int {
	stride := make([]int, len(shape))
	s := 1
	for d := len(shape) - 1; d >= 0; d-- {
		stride[d] = s
		s *= shape[d]
	}
	out := []int{0}
	for _, ax := range axes {
		next := make([]int, 0, len(out)*shape[ax])
		for _, o := range out {
			for i := range shape[ax] {
				next = append(next, o+i*stride[ax])
			}
		}
		out = next
	}
	return out
}

// newDotStep compiles a dot_general of float operands into a matrix
// product; it reports false for the products it leaves to the evaluator
// (integer operands or results, invalid dimension numbers, mixed dtypes).
func newDotStep(e *ir.Eqn, in []ref, out int) (*dotStep, bool) {
	if len(e.In) != 2 || len(e.Out) != 1 {
		return nil, false
	}
	d, ok := e.Params["dimension_numbers"].(ir.DotDims)
	lt, rt, ot := e.In[0].Type(), e.In[1].Type(), e.Out[0].Aval
	if !ok || lt.DType != rt.DType || !lt.DType.IsFloat() || !ot.DType.IsFloat() {
		return nil, false
	}
	batch, m, n, k, a, b, ok := dotViews(lt.Shape, rt.Shape, d)
	if !ok || ir.NumElements(ot.Shape) != batch*m*n {
		return nil, false
	}
	var prod matProduct
	switch f64in, f64out := lt.DType == ir.Float64, ot.DType == ir.Float64; {
	case !f64in && !f64out:
		prod = newGemmPlan[float32](batch, m, n, k, a, b, kernelF32, blockingF32)
	case f64in:
		prod = newGemmPlan[float64](batch, m, n, k, a, b, kernelF64, blockingF64)
	default:
		prod = newGemmPlan[float32](batch, m, n, k, a, b, kernelF64, blockingF64)
	}
	return &dotStep{eqn: e, in: [2]ref{in[0], in[1]}, out: out, aval: ot, prod: prod}, true
}

// run computes the product into the result's slot; the epilogue kernel
// runs on each block of rows of the output as soon as it is final.
func (s *dotStep) run(st *state) error {
	c := st.dest(s.out, s.aval)
	st.env[s.out] = c
	var epi epilogue
	var sc *kscratch
	nw := s.prod.workers()
	if s.epi != nil {
		sc = s.epi.prepare(st, nw)
		m, n := s.prod.dims()
		epi = func(w, b, r0, r1, c0, c1 int) {
			for i := r0; i < r1; i++ {
				lo := (b*m+i)*n + c0
				s.epi.runChunk(sc, w, lo, lo+c1-c0)
			}
		}
	}
	if err := s.prod.exec(st, s.self, st.get(s.in[0]), st.get(s.in[1]), c, epi); err != nil {
		return fmt.Errorf("%w%s", err, at(s.eqn))
	}
	if s.epi != nil {
		return s.epi.failed(sc, nw)
	}
	return nil
}

// exec runs the product with the state's run of it.
func (g *gemmPlan[S, T]) exec(st *state, self int, a, b, c *ir.Buffer, epi epilogue) error {
	r, _ := st.scratch[self].(*gemmRun[S, T])
	if r == nil {
		r = g.newRun()
		st.scratch[self] = r
	}
	out, direct := c.Data.([]T)
	if !direct {
		// float64 products of a float32-stored result: compute in the
		// run's float64 buffer, rounded into c block by block.
		if len(r.c64) == 0 {
			r.c64 = make([]T, c.Len())
		}
		out = r.c64
	}
	finish := epi
	if round := c.DType == ir.BFloat16 || c.DType == ir.Float16; round || !direct {
		dst := c.Data.([]float32)
		finish = func(w, bi, r0, r1, c0, c1 int) {
			for i := r0; i < r1; i++ {
				o := bi*g.m*g.n + i*g.n
				seg := dst[o+c0 : o+c1]
				if !direct {
					for j, v := range out[o+c0 : o+c1] {
						seg[j] = float32(v)
					}
				}
				if round {
					for j, v := range seg {
						seg[j] = ir.RoundTo(c.DType, float64(v))
					}
				}
			}
			if epi != nil {
				epi(w, bi, r0, r1, c0, c1)
			}
		}
	}
	return r.run(a.Data.([]S), b.Data.([]S), out, finish)
}
