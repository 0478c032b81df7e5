package gpu

import (
	"math"
	"testing"

	"github.com/jitlint/jitlint/jit/gpu/internal/codelab"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// TestPrimitiveEdgeCases runs single primitives on special values (NaN, ±inf,
// ±0, negatives, integer extremes) through the interpreter against eval.
func TestPrimitiveEdgeCases(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	fv := codelab.Vec(nan, inf, -inf, 0, math.Copysign(0, -1), -2.5, 2.5, 7, -7, 1e-40)
	gv := codelab.Vec(1, nan, 3, -0.5, 2, -2, 2.5, -3, 3, nan)
	iv := ir.NewBuffer(ir.Int32, []int{10})
	jv := ir.NewBuffer(ir.Int32, []int{10})
	for i, v := range []float64{-7, 7, 0, math.MinInt32, math.MaxInt32, 3, -3, 1, 2, -1} {
		iv.Set(i, v)
		jv.Set(i, float64([]int{2, -2, 5, 3, 7, -3, 3, 1, 2, 4}[i]))
	}
	sel := ir.NewBuffer(ir.Int32, []int{10})
	for i := range 10 {
		sel.Set(i, float64(i%3))
	}
	type build func(b *ir.Builder, x, y *ir.Var) *ir.Var
	unary := func(p string) build { return func(b *ir.Builder, x, _ *ir.Var) *ir.Var { return b.Same(p, x) } }
	binary := func(p string) build { return func(b *ir.Builder, x, y *ir.Var) *ir.Var { return b.Same(p, x, y) } }
	cmp := func(p string) build {
		return func(b *ir.Builder, x, y *ir.Var) *ir.Var { return b.Compare(p, x, y) }
	}
	conv := func(to ir.DType) build {
		return func(b *ir.Builder, x, _ *ir.Var) *ir.Var {
			return b.Op(ir.ConvertElementType, ir.Params{"new_dtype": to, "weak_type": false, "sharding": nil}, ir.Aval{Shape: x.Aval.Shape, DType: to}, x)
		}
	}
	ipow := func(y int) build {
		return func(b *ir.Builder, x, _ *ir.Var) *ir.Var {
			return b.Op(ir.IntegerPow, ir.Params{"y": y}, x.Aval, x)
		}
	}
	cases := []struct {
		name string
		x, y *ir.Buffer
		f    build
	}{
		{"max_f32", fv, gv, binary(ir.Max)}, {"min_f32", fv, gv, binary(ir.Min)},
		{"sign_f32", fv, gv, unary(ir.Sign)}, {"floor", fv, gv, unary(ir.Floor)}, {"ceil", fv, gv, unary(ir.Ceil)},
		{"sqrt", fv, gv, unary(ir.Sqrt)}, {"abs", fv, gv, unary(ir.Abs)}, {"neg", fv, gv, unary(ir.Neg)},
		{"div_f32", fv, gv, binary(ir.Div)}, {"rem_f32", fv, gv, binary(ir.Rem)}, {"pow", fv, gv, binary(ir.Pow)},
		{"ne_f32", fv, gv, cmp(ir.Ne)}, {"eq_f32", fv, gv, cmp(ir.Eq)}, {"lt_f32", fv, gv, cmp(ir.Lt)},
		{"ipow_3", fv, gv, ipow(3)}, {"ipow_-2", fv, gv, ipow(-2)}, {"ipow_0", fv, gv, ipow(0)},
		{"f32_to_i32", fv, gv, conv(ir.Int32)}, {"f32_to_bool", fv, gv, conv(ir.Bool)}, {"f32_to_f64", fv, gv, conv(ir.Float64)},
		{"div_i32", iv, jv, binary(ir.Div)}, {"rem_i32", iv, jv, binary(ir.Rem)}, {"max_i32", iv, jv, binary(ir.Max)},
		{"sign_i32", iv, jv, unary(ir.Sign)}, {"not_i32", iv, jv, unary(ir.Not)}, {"and_i32", iv, jv, binary(ir.And)},
		{"i32_to_f32", iv, jv, conv(ir.Float32)}, {"i32_to_i64", iv, jv, conv(ir.Int64)}, {"ipow_i32", iv, jv, ipow(2)},
		{"select_n_3", sel, fv, func(b *ir.Builder, x, y *ir.Var) *ir.Var {
			neg := b.Same(ir.Neg, y)
			return b.Op(ir.SelectN, nil, y.Aval, x, y, neg, b.Same(ir.Abs, y))
		}},
		{"clamp", fv, gv, func(b *ir.Builder, x, y *ir.Var) *ir.Var {
			return b.Op(ir.Clamp, nil, x.Aval, f32Lit(-3), x, f32Lit(3))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := ir.NewBuilder()
			x := b.In(c.x.DType, c.x.Shape...)
			y := b.In(c.y.DType, c.y.Shape...)
			cj := b.Done(c.name, c.f(b, x, y))
			args := []*ir.Buffer{c.x, c.y}
			want, err := eval.Closed(cj, args)
			if err != nil {
				t.Fatalf("eval (the reference): %v", err)
			}
			exe, _, text := compileSim(t, cj)
			got, err := exe.Execute(args)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want[0].Len() {
				a, w := got[0].At(i), want[0].At(i)
				if a != w && !(math.IsNaN(a) && math.IsNaN(w)) && math.Abs(a-w) > 1e-6*math.Abs(w) {
					t.Errorf("element %d (x=%v y=%v): got %v, want %v\n%s", i, c.x.At(i), c.y.At(i), a, w, text)
					break
				}
			}
		})
	}
}

// TestSplitReduction: large reductions with few outputs run as two kernels
// (partials over several blocks per output, then their reduction), fused
// with their elementwise producer, exporting an intermediate too.
func TestSplitReduction(t *testing.T) {
	for _, c := range []struct {
		prim  string
		shape []int
		axes  []int
	}{
		{ir.ReduceSum, []int{1 << 16}, []int{0}},
		{ir.ReduceMax, []int{3, 40000}, []int{1}},
		{ir.ReduceMin, []int{40000, 2}, []int{0}},
	} {
		t.Run(c.prim, func(t *testing.T) {
			b := ir.NewBuilder()
			x := b.In(ir.Float32, c.shape...)
			sq := b.Same(ir.Mul, x, x)
			var outShape []int
			for d, n := range c.shape {
				if d != c.axes[0] {
					outShape = append(outShape, n)
				}
			}
			r := b.Op(c.prim, ir.Params{"axes": c.axes, "out_sharding": nil}, ir.Aval{Shape: outShape, DType: ir.Float32}, sq)
			cj := b.Done("split", r, sq)
			arg := ir.NewBuffer(ir.Float32, c.shape)
			for i := range arg.Len() {
				arg.Set(i, float64((i*37)%1001)/100-5)
			}
			want, err := eval.Closed(cj, []*ir.Buffer{arg})
			if err != nil {
				t.Fatal(err)
			}
			exe, _, text := compileSim(t, cj)
			if n := len(kernelNames(text)); n != 2 {
				t.Errorf("%d kernels, want 2 (split reduction)", n)
			}
			got, err := exe.Execute([]*ir.Buffer{arg})
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if d := maxRelDiff(t, got[i], want[i]); d > 1e-5 {
					t.Errorf("result %d: max relative difference %g", i, d)
				}
			}
		})
	}
}

// f32Lit is a weakly typed f32 literal.
func f32Lit(v float64) ir.Literal {
	return ir.Literal{Value: v, Aval: ir.Aval{DType: ir.Float32, Weak: true}}
}
