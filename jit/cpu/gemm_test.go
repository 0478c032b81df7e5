package cpu

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// dotJaxpr is one dot_general of operands of these shapes and dtype.
func dotJaxpr(ls, rs []int, d ir.DotDims, dt, out ir.DType) *ir.ClosedJaxpr {
	x, y := ir.NewVar(ir.Aval{Shape: ls, DType: dt}), ir.NewVar(ir.Aval{Shape: rs, DType: dt})
	var shape []int
	for _, a := range d.LhsBatch {
		shape = append(shape, ls[a])
	}
	for _, a := range d.LhsFree(len(ls)) {
		shape = append(shape, ls[a])
	}
	for _, a := range d.RhsFree(len(rs)) {
		shape = append(shape, rs[a])
	}
	z := ir.NewVar(ir.Aval{Shape: shape, DType: out})
	e := &ir.Eqn{Prim: ir.DotGeneral, Params: ir.Params{"dimension_numbers": d, "precision": nil, "preferred_element_type": out, "out_sharding": nil},
		In: []ir.Atom{x, y}, Out: []*ir.Var{z}}
	return &ir.ClosedJaxpr{Jaxpr: &ir.Jaxpr{Invars: []*ir.Var{x, y}, Eqns: []*ir.Eqn{e}, Outvars: []ir.Atom{z}}}
}

// matmulDims are the dimension numbers of a plain matrix product.
var matmulDims = ir.DotDims{LhsContract: []int{1}, RhsContract: []int{0}, LhsBatch: []int{}, RhsBatch: []int{}}

// fill sets b's elements to small integers in [-4, 4] (ints) or to
// uniform values in [-1, 1).
func fill(r *rand.Rand, b *ir.Buffer, ints bool) *ir.Buffer {
	for i := range b.Len() {
		if ints {
			b.Set(i, float64(r.IntN(9)-4))
		} else {
			b.Set(i, 2*r.Float64()-1)
		}
	}
	return b
}

// productBound returns, per output element, the bound on |cpu - exact|
// that the summation order gives (gemm.go): d roundings of unit roundoff
// u of the compute type, d = min(k, kc) + ⌈k/kc⌉ - 1, times Σ|a||b|,
// plus one rounding of the result type (both sides round their sum to it).
func productBound(t *testing.T, cj *ir.ClosedJaxpr, args []*ir.Buffer, k int) []float64 {
	t.Helper()
	abs := make([]*ir.Buffer, len(args))
	for i, a := range args {
		abs[i] = ir.NewBuffer(a.DType, a.Shape)
		for j := range a.Len() {
			abs[i].Set(j, math.Abs(a.At(j)))
		}
	}
	sum, err := eval.Closed(cj, abs)
	if err != nil {
		t.Fatal(err)
	}
	dt := args[0].DType
	compute := cj.Jaxpr.Outvars[0].Type().DType
	u, kc := 0x1p-24, blockingF32.kc
	if dt == ir.Float64 || compute == ir.Float64 {
		u, kc = 0x1p-53, blockingF64.kc
	}
	d := float64(min(k, kc) + (k+kc-1)/kc - 1)
	outU := map[ir.DType]float64{ir.Float32: 0x1p-24, ir.Float64: 0x1p-53, ir.BFloat16: 0x1p-8, ir.Float16: 0x1p-11}[compute]
	gamma := d * u / (1 - d*u)
	out := make([]float64, sum[0].Len())
	for i := range out {
		s := sum[0].At(i)
		out[i] = gamma*s*(1+outU) + 2*outU*s*(1+gamma)
	}
	return out
}

// checkDot compares a dot_general on the CPU backend with the evaluator:
// exactly for integer-valued inputs, within productBound otherwise.
func checkDot(t *testing.T, cj *ir.ClosedJaxpr, ints bool, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	var args []*ir.Buffer
	for _, v := range cj.Jaxpr.Invars {
		args = append(args, fill(r, ir.NewBuffer(v.Aval.DType, v.Aval.Shape), ints))
	}
	want, err := eval.Closed(cj, args)
	if err != nil {
		t.Fatal(err)
	}
	ex, l := compileCJ(t, cj)
	got, err := ex.Execute(args)
	if err != nil {
		t.Fatal(err)
	}
	if ints {
		if err := sameBuffers(got, want, 0); err != nil {
			t.Fatalf("integer inputs: %v\n%s", err, l.Text())
		}
		return
	}
	e := cj.Jaxpr.Eqns[0]
	d := e.Params["dimension_numbers"].(ir.DotDims)
	k := 1
	for _, a := range d.LhsContract {
		k *= e.In[0].Type().Shape[a]
	}
	bound := productBound(t, cj, args, k)
	for i := range bound {
		if diff := math.Abs(got[0].At(i) - want[0].At(i)); !(diff <= bound[i]) {
			t.Fatalf("element %d: got %v, want %v: |difference| %g exceeds the bound %g\n%s", i, got[0].At(i), want[0].At(i), diff, bound[i], l.Text())
		}
	}
}

func TestMatmulShapes(t *testing.T) {
	for _, s := range [][3]int{{1, 1, 1}, {2, 3, 4}, {7, 5, 17}, {6, 16, 8}, {13, 300, 33}, {64, 64, 64}, {100, 1, 70}, {1, 90, 200}, {150, 520, 40}, {3, 0, 5}, {0, 4, 4}} {
		m, k, n := s[0], s[1], s[2]
		// Operand and result dtypes (preferred_element_type).
		for _, dts := range [][2]ir.DType{{ir.Float32, ir.Float32}, {ir.Float64, ir.Float64}, {ir.BFloat16, ir.Float32},
			{ir.Float16, ir.Float16}, {ir.Float32, ir.Float64}, {ir.Float64, ir.Float32}} {
			cj := dotJaxpr([]int{m, k}, []int{k, n}, matmulDims, dts[0], dts[1])
			checkDot(t, cj, true, 1)
			checkDot(t, cj, false, 2)
		}
	}
}

// mlpJaxpr is tanh(x·w + b) for x m×k, w k×n, b of n (broadcast over the
// rows), staged as jit stages it: the product, the broadcast, the add.
func mlpJaxpr(m, k, n int) *ir.ClosedJaxpr {
	var bl ir.Builder
	x, w, b := bl.In(ir.Float32, m, k), bl.In(ir.Float32, k, n), bl.In(ir.Float32, n)
	out := ir.Aval{Shape: []int{m, n}, DType: ir.Float32}
	p := bl.Op(ir.DotGeneral, ir.Params{"dimension_numbers": matmulDims, "precision": nil, "preferred_element_type": ir.Float32, "out_sharding": nil}, out, x, w)
	bb := bl.Op(ir.BroadcastInDim, ir.Params{"shape": []int{m, n}, "broadcast_dimensions": []int{1}, "sharding": nil}, out, b)
	s := bl.Op(ir.Add, nil, out, p, bb)
	return &ir.ClosedJaxpr{Jaxpr: bl.Jaxpr(bl.Same(ir.Tanh, s))}
}

func TestEpilogueRunsInTheProduct(t *testing.T) {
	for _, s := range [][3]int{{256, 784, 512}, {5, 7, 3}, {300, 40, 33}} {
		cj := mlpJaxpr(s[0], s[1], s[2])
		ex, l := compileCJ(t, cj)
		var dots []*dotStep
		for _, st := range l.prog.steps {
			if d, ok := st.(*dotStep); ok {
				dots = append(dots, d)
			}
		}
		if len(dots) != 1 || dots[0].epi == nil || dots[0].epi.eqns != 3 {
			t.Fatalf("%v: want one product step with the broadcast, the add and tanh as its epilogue\n%s", s, l.Text())
		}
		r := rand.New(rand.NewPCG(7, 7))
		var args []*ir.Buffer
		for _, v := range cj.Jaxpr.Invars {
			args = append(args, fill(r, ir.NewBuffer(v.Aval.DType, v.Aval.Shape), false))
		}
		want, err := eval.Closed(cj, args)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ex.Execute(args)
		if err != nil {
			t.Fatal(err)
		}
		// tanh is 1-Lipschitz: the product's error bound plus a few ulps.
		k := s[1]
		tol := float64(min(k, blockingF32.kc)+k/blockingF32.kc) * 0x1p-24 * float64(k)
		for i := range got[0].Len() {
			if d := math.Abs(got[0].At(i) - want[0].At(i)); d > tol+4*0x1p-24 {
				t.Fatalf("%v element %d: got %v, want %v", s, i, got[0].At(i), want[0].At(i))
			}
		}
	}
}

// TestTransposedProductIsOneProduct checks the fold of Grad's cotangent
// of a matmul's right operand, transpose(dot_general(g, x)): one product,
// no transpose, the same bits as the evaluator's for integer inputs.
func TestTransposedProductIsOneProduct(t *testing.T) {
	var bl ir.Builder
	g, x := bl.In(ir.Float32, 64, 40), bl.In(ir.Float32, 64, 30)
	d := ir.DotDims{LhsContract: []int{0}, RhsContract: []int{0}, LhsBatch: []int{}, RhsBatch: []int{}}
	p := bl.Op(ir.DotGeneral, ir.Params{"dimension_numbers": d, "precision": nil, "preferred_element_type": ir.Float32, "out_sharding": nil},
		ir.Aval{Shape: []int{40, 30}, DType: ir.Float32}, g, x)
	tr := bl.Op(ir.Transpose, ir.Params{"permutation": []int{1, 0}}, ir.Aval{Shape: []int{30, 40}, DType: ir.Float32}, p)
	cj := &ir.ClosedJaxpr{Jaxpr: bl.Jaxpr(tr)}
	_, l := compileCJ(t, cj)
	if len(l.prog.steps) != 1 {
		t.Fatalf("want one product step\n%s", l.Text())
	}
	if _, ok := l.prog.steps[0].(*dotStep); !ok {
		t.Fatalf("the step is %T, want a product\n%s", l.prog.steps[0], l.Text())
	}
	checkDot(t, cj, true, 3)
	// A transpose of a product read elsewhere too stays.
	cj2 := &ir.ClosedJaxpr{Jaxpr: bl.Jaxpr(tr, p)}
	if _, l := compileCJ(t, cj2); len(l.prog.steps) != 2 {
		t.Fatalf("a product also returned itself must not be folded\n%s", l.Text())
	}
}

// TestConvertFusesIntoPacking checks a bf16 operand converted to f32 for
// the product: the packing reads the bf16 values (stored as float32) in
// place, with no convert step, and the result matches the evaluator.
func TestConvertFusesIntoPacking(t *testing.T) {
	var bl ir.Builder
	x, w := bl.In(ir.BFloat16, 20, 30), bl.In(ir.Float32, 30, 40)
	xc := bl.Op(ir.ConvertElementType, ir.Params{"new_dtype": ir.Float32, "weak_type": false, "sharding": nil}, ir.Aval{Shape: []int{20, 30}, DType: ir.Float32}, x)
	p := bl.Op(ir.DotGeneral, ir.Params{"dimension_numbers": matmulDims, "precision": nil, "preferred_element_type": ir.Float32, "out_sharding": nil},
		ir.Aval{Shape: []int{20, 40}, DType: ir.Float32}, xc, w)
	cj := &ir.ClosedJaxpr{Jaxpr: bl.Jaxpr(p)}
	_, l := compileCJ(t, cj)
	if len(l.prog.steps) != 1 || !strings.Contains(l.Text(), "its packing reads 1 converted operand(s) in place") {
		t.Fatalf("want one product step reading x in place\n%s", l.Text())
	}
	checkDot(t, cj, true, 4)
	r := rand.New(rand.NewPCG(9, 9))
	args := []*ir.Buffer{fill(r, ir.NewBuffer(ir.BFloat16, []int{20, 30}), false), fill(r, ir.NewBuffer(ir.Float32, []int{30, 40}), false)}
	want, _ := eval.Closed(cj, args)
	ex, _ := compileCJ(t, cj)
	got, err := ex.Execute(args)
	if err != nil {
		t.Fatal(err)
	}
	if err := withinAbs(got[0], want[0], 30*0x1p-24*30); err != nil {
		t.Fatal(err)
	}
	// Returned as well, the converted operand is computed by its own step.
	cj2 := &ir.ClosedJaxpr{Jaxpr: bl.Jaxpr(p, xc)}
	if _, l := compileCJ(t, cj2); len(l.prog.steps) != 2 {
		t.Fatalf("a convert read elsewhere must stay\n%s", l.Text())
	}
}

// TestWideProductsSplitByColumns checks how a product of one batch runs
// over two workers: a wide one as one column range per worker (whole
// micro-panels, every row), a narrow one on shared panels of B; and that
// either way the bits are those of one worker, since the summation order
// depends on kc only.
func TestWideProductsSplitByColumns(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	view := func(rows, cols int) matView {
		return newMatView([]int{0}, axisOffsets([]int{rows, cols}, []int{0}), axisOffsets([]int{rows, cols}, []int{1}))
	}
	for _, s := range []struct {
		m, k, n int
		shared  bool
	}{{256, 256, 256, false}, {300, 200, 130, false}, {512, 256, 40, true}} {
		a, b := view(s.m, s.k), view(s.k, s.n)
		g := newGemmPlan[float32](1, s.m, s.n, s.k, a, b, goKernelF32, blockingF32)
		if g.shared != s.shared {
			t.Fatalf("%v: shared %v, want %v (%s)", s, g.shared, s.shared, g.describe())
		}
		if !s.shared {
			if len(g.tasks) != 2 || g.tasks[0].n0 != 0 || g.tasks[1].n1 != s.n || g.tasks[0].n1 != g.tasks[1].n0 || g.tasks[0].n1%goKernelF32.nr != 0 {
				t.Fatalf("%v: tasks %+v, want two column ranges of whole micro-panels", s, g.tasks)
			}
			for _, tk := range g.tasks {
				if tk.m0 != 0 || tk.m1 != s.m {
					t.Fatalf("%v: task %+v does not cover every row", s, tk)
				}
			}
		}
		r := rand.New(rand.NewPCG(3, uint64(s.n)))
		x, y := make([]float32, s.m*s.k), make([]float32, s.k*s.n)
		for i := range x {
			x[i] = r.Float32()*2 - 1
		}
		for i := range y {
			y[i] = r.Float32()*2 - 1
		}
		got := make([]float32, s.m*s.n)
		if err := g.newRun().run(x, y, got, nil); err != nil {
			t.Fatal(err)
		}
		runtime.GOMAXPROCS(1)
		one := newGemmPlan[float32](1, s.m, s.n, s.k, a, b, goKernelF32, blockingF32)
		want := make([]float32, s.m*s.n)
		if err := one.newRun().run(x, y, want, nil); err != nil {
			t.Fatal(err)
		}
		runtime.GOMAXPROCS(2)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%v: element %d is %v over two workers, %v on one", s, i, got[i], want[i])
			}
		}
	}
}
