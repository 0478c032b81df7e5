package randjaxpr

import (
	"math/rand/v2"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// ProductOptions controls Products. Zero fields take the defaults noted.
type ProductOptions struct {
	// DTypes are the operand dtypes to draw from (default f32).
	DTypes []ir.DType
	// MaxDim bounds every dimension (default 12; at least 1); dimensions
	// are halved until the product has at most 2^21 multiply-adds.
	MaxDim int
	// Integers makes every input a small integer (in [-4, 4]), so that
	// any summation order gives the exact product.
	Integers bool
}

// Products builds a random jaxpr around one dot_general with random
// dimension numbers: up to two batch, two contracting and two free
// dimensions per operand, in random positions of each operand. The
// product may be transposed (swapping its free dimensions, as Grad's
// cotangents do, or by a random permutation), then passes through a
// random epilogue of up to four of: a bias of its trailing dimensions
// (broadcast_in_dim and add), tanh, logistic, max with 0, neg, a scale
// by a literal in [-1, 1], and a residual add of another input. bfloat16
// and float16 products may return float32 (preferred_element_type), with
// or without their operands converted to float32 first. Every
// epilogue operation is 1-Lipschitz, so an error in the product is not
// amplified. The same r state gives the same jaxpr and inputs.
func Products(r *rand.Rand, opts ProductOptions) (*ir.Jaxpr, []*ir.Buffer) {
	if len(opts.DTypes) == 0 {
		opts.DTypes = []ir.DType{ir.Float32}
	}
	if opts.MaxDim <= 0 {
		opts.MaxDim = 12
	}
	dt := opts.DTypes[r.IntN(len(opts.DTypes))]
	size := func() int { return 1 + r.IntN(opts.MaxDim) }
	nb, nc, nl, nr := r.IntN(3), r.IntN(3), r.IntN(3), r.IntN(3)
	batch, contract, lfree, rfree := sizes(nb, size), sizes(nc, size), sizes(nl, size), sizes(nr, size)
	// At most maxProductWork multiply-adds (the evaluator's loops are slow):
	// halve the largest dimension until the product fits.
	all := [][]int{batch, contract, lfree, rfree}
	for work(all) > maxProductWork {
		var big *int
		for _, l := range all {
			for i := range l {
				if big == nil || l[i] > *big {
					big = &l[i]
				}
			}
		}
		*big = (*big + 1) / 2
	}
	// Each operand's axes: kind (0 batch, 1 contract, 2 free) and index.
	type axis struct{ kind, i int }
	layout := func(nfree int) []axis {
		var ax []axis
		for i := range nb {
			ax = append(ax, axis{0, i})
		}
		for i := range nc {
			ax = append(ax, axis{1, i})
		}
		for i := range nfree {
			ax = append(ax, axis{2, i})
		}
		r.Shuffle(len(ax), func(i, j int) { ax[i], ax[j] = ax[j], ax[i] })
		// The result has the free dimensions in the operand's order.
		f := 0
		for p := range ax {
			if ax[p].kind == 2 {
				ax[p].i = f
				f++
			}
		}
		return ax
	}
	operand := func(ax []axis, free []int) (shape, batchPos, contractPos []int) {
		batchPos, contractPos = make([]int, nb), make([]int, nc)
		for p, a := range ax {
			switch a.kind {
			case 0:
				shape, batchPos[a.i] = append(shape, batch[a.i]), p
			case 1:
				shape, contractPos[a.i] = append(shape, contract[a.i]), p
			default:
				shape = append(shape, free[a.i])
			}
		}
		return shape, batchPos, contractPos
	}
	ls, lb, lc := operand(layout(nl), lfree)
	rs, rb, rc := operand(layout(nr), rfree)
	g := &gen{r: r, opts: Options{DTypes: []ir.DType{dt}}}
	var args []*ir.Buffer
	input := func(shape []int) *ir.Var {
		a := ir.Aval{Shape: shape, DType: dt}
		b := randomBuffer(r, a)
		if opts.Integers {
			for i := range b.Len() {
				b.Set(i, float64(r.IntN(9)-4))
			}
		}
		args = append(args, b)
		return g.in(a)
	}
	x, y := input(ls), input(rs)
	out := slices.Concat(batch, lfree, rfree)
	dims := ir.DotDims{LhsBatch: lb, RhsBatch: rb, LhsContract: lc, RhsContract: rc}
	// Half-precision operands: a product accumulating and returning f32
	// (preferred_element_type), or one of operands converted to f32 first.
	prefer := dt
	if dt == ir.BFloat16 || dt == ir.Float16 {
		switch r.IntN(3) {
		case 0:
			prefer = ir.Float32
		case 1:
			prefer = ir.Float32
			cv := func(v *ir.Var) *ir.Var {
				return g.emit(ir.ConvertElementType, ir.Params{"new_dtype": ir.Float32, "weak_type": false, "sharding": nil}, ir.Aval{Shape: v.Aval.Shape, DType: ir.Float32}, v)
			}
			x, y = cv(x), cv(y)
		}
	}
	dt = prefer
	v := g.emit(ir.DotGeneral, ir.Params{"dimension_numbers": dims, "precision": nil, "preferred_element_type": dt, "out_sharding": nil},
		ir.Aval{Shape: out, DType: dt}, x, y)
	if nl+nr > 0 && r.IntN(3) == 0 {
		perm := make([]int, len(out))
		for i := range perm {
			perm[i] = i
		}
		if r.IntN(2) == 0 {
			perm = slices.Concat(perm[:nb], perm[nb+nl:], perm[nb:nb+nl])
		} else {
			r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		}
		shape := make([]int, len(perm))
		for i, p := range perm {
			shape[i] = out[p]
		}
		v = g.emit(ir.Transpose, ir.Params{"permutation": perm}, ir.Aval{Shape: shape, DType: dt}, v)
	}
	a := v.Aval
	lit := func(x float64) ir.Literal { return ir.Literal{Value: x, Aval: ir.Aval{DType: dt}} }
	for range r.IntN(5) {
		switch r.IntN(7) {
		case 0:
			if len(a.Shape) == 0 {
				continue
			}
			k := 1 + r.IntN(min(2, len(a.Shape)))
			bshape := slices.Clone(a.Shape[len(a.Shape)-k:])
			bdims := make([]int, k)
			for i := range bdims {
				bdims[i] = len(a.Shape) - k + i
			}
			bb := g.emit(ir.BroadcastInDim, ir.Params{"shape": slices.Clone(a.Shape), "broadcast_dimensions": bdims, "sharding": nil}, a, input(bshape))
			v = g.emit(ir.Add, nil, a, v, bb)
		case 1:
			v = g.emit(ir.Tanh, nil, a, v)
		case 2:
			v = g.emit(ir.Logistic, nil, a, v)
		case 3:
			v = g.emit(ir.Max, nil, a, v, lit(0))
		case 4:
			v = g.emit(ir.Neg, nil, a, v)
		case 5:
			s := float64(r.IntN(9)-4) / 4
			v = g.emit(ir.Mul, nil, a, lit(s), v)
		default:
			v = g.emit(ir.Add, nil, a, input(slices.Clone(a.Shape)), v)
		}
	}
	g.j.Outvars = []ir.Atom{v}
	return &g.j, args
}

// maxProductWork bounds the multiply-adds of a Products jaxpr.
const maxProductWork = 1 << 21

// work is the product of all sizes.
func work(lists [][]int) int {
	n := 1
	for _, l := range lists {
		for _, d := range l {
			n *= d
		}
	}
	return n
}

// sizes returns n dimension sizes.
func sizes(n int, size func() int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = size()
	}
	return s
}
