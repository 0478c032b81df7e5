package eval

import (
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// TestMalformedJaxprs checks that malformed programs and inputs give errors
// that say what is wrong, not panics.
func TestMalformedJaxprs(t *testing.T) {
	one := func() (*ir.Jaxpr, *ir.Var) {
		var b ir.Builder
		x := b.Input(av(ir.Float32, 2))
		return b.Jaxpr(b.Op(ir.Neg, nil, av(ir.Float32, 2), x)), x
	}
	j, _ := one()
	_, err := Jaxpr(j, nil, nil)
	wantErr(t, err, "1 inputs but got 0")
	_, err = Jaxpr(j, []*ir.Buffer{vec(ir.Float32, 1)}, []*ir.Buffer{vec(ir.Float32, 1, 2)})
	wantErr(t, err, "0 constvars but got 1")
	_, err = Jaxpr(j, nil, []*ir.Buffer{vec(ir.Float32, 1, 2, 3)})
	wantErr(t, err, "input 0", "f32[3]", "f32[2]")
	_, err = Jaxpr(j, nil, []*ir.Buffer{vec(ir.Float64, 1, 2)})
	wantErr(t, err, "input 0", "f64[2]")
	_, err = Jaxpr(j, nil, []*ir.Buffer{nil})
	wantErr(t, err, "nil buffer")
	_, err = Jaxpr(j, nil, []*ir.Buffer{{DType: ir.Float32, Shape: []int{2}, Data: []float64{1, 2}}})
	wantErr(t, err, "float64")
	_, err = Jaxpr(j, nil, []*ir.Buffer{{DType: ir.Float32, Shape: []int{2}, Data: []float32{1}}})
	wantErr(t, err, "holds 1 elements, want 2")
	_, err = Jaxpr(nil, nil, nil)
	wantErr(t, err, "nil jaxpr")
	_, err = Closed(nil, nil)
	wantErr(t, err, "nil closed jaxpr")

	// A variable used before it is defined.
	var b ir.Builder
	x := b.Input(f32s)
	ghost := ir.NewVar(f32s)
	src := b.Op(ir.Add, nil, f32s, x, ghost)
	b.Eqns()[0].Source = &ir.Pos{File: "model.go", Line: 12}
	_, err = Jaxpr(b.Jaxpr(src), nil, []*ir.Buffer{scalar(ir.Float32, 1)})
	wantErr(t, err, "eval add", "operand 1", "before it is defined", "equation 0", "model.go:12")

	// An output variable whose type disagrees with the computed result.
	var b2 ir.Builder
	y := b2.Input(av(ir.Float32, 2))
	bad := b2.Op(ir.Neg, nil, av(ir.Float32, 3), y)
	_, err = Jaxpr(b2.Jaxpr(bad), nil, []*ir.Buffer{vec(ir.Float32, 1, 2)})
	wantErr(t, err, "eval neg", "result 0", "f32[2]", "f32[3]")

	// Wrong number of output variables.
	var b3 ir.Builder
	z := b3.Input(f32s)
	b3.Multi(ir.Sin, nil, []ir.Aval{f32s, f32s}, z)
	_, err = Jaxpr(b3.Jaxpr(z), nil, []*ir.Buffer{scalar(ir.Float32, 1)})
	wantErr(t, err, "eval sin", "produced 1 results", "2 output variables")

	// Unknown primitive, bad literal, nil operand.
	var b4 ir.Builder
	w := b4.Input(f32s)
	u := b4.Op("frobnicate", nil, f32s, w)
	_, err = Jaxpr(b4.Jaxpr(u), nil, []*ir.Buffer{scalar(ir.Float32, 1)})
	wantErr(t, err, "eval frobnicate", "unknown primitive")
	var b5 ir.Builder
	w5 := b5.Input(f32s)
	u5 := b5.Op(ir.Add, nil, f32s, w5, ir.Literal{Value: 1})
	_, err = Jaxpr(b5.Jaxpr(u5), nil, []*ir.Buffer{scalar(ir.Float32, 1)})
	wantErr(t, err, "eval add", "invalid dtype")
	var b6 ir.Builder
	w6 := b6.Input(f32s)
	u6 := b6.Op(ir.Add, nil, f32s, w6, nil)
	_, err = Jaxpr(b6.Jaxpr(u6), nil, []*ir.Buffer{scalar(ir.Float32, 1)})
	wantErr(t, err, "eval add", "nil operand")

	// Errors inside nested jaxprs name the enclosing primitive.
	inner, _ := one()
	var b7 ir.Builder
	v7 := b7.Input(av(ir.Float32, 3))
	o7 := b7.Op(ir.Jit, ir.Params{"name": "f", "jaxpr": &ir.ClosedJaxpr{Jaxpr: inner}}, av(ir.Float32, 2), v7)
	_, err = Jaxpr(b7.Jaxpr(o7), nil, []*ir.Buffer{vec(ir.Float32, 1, 2, 3)})
	wantErr(t, err, "eval jit", "input 0", "f32[3]")
}

// TestBadParams checks parameter type errors.
func TestBadParams(t *testing.T) {
	x := vec(ir.Float32, 1, 2)
	cases := []struct {
		prim   string
		params ir.Params
		args   []*ir.Buffer
		want   string
	}{
		{ir.Reshape, ir.Params{"new_sizes": "2"}, []*ir.Buffer{x}, "want []int"},
		{ir.IntegerPow, ir.Params{"y": 2.0}, []*ir.Buffer{x}, "want int"},
		{ir.ConvertElementType, ir.Params{"new_dtype": "f32"}, []*ir.Buffer{x}, "want ir.DType"},
		{ir.ConvertElementType, ir.Params{"new_dtype": ir.DType(99)}, []*ir.Buffer{x}, "invalid dtype"},
		{ir.Scan, ir.Params{"jaxpr": nil, "length": 1}, []*ir.Buffer{x}, "want a non-nil *ir.ClosedJaxpr"},
		{ir.Scan, ir.Params{"jaxpr": scanBody(), "length": 1, "num_consts": 9, "num_carry": 0}, []*ir.Buffer{x}, "do not fit"},
		{ir.Cond, ir.Params{"branches": []*ir.ClosedJaxpr{}}, []*ir.Buffer{scalar(ir.Int32, 0)}, "non-empty"},
		{ir.Pad, ir.Params{"padding_config": [][2]int{{0, 0}}}, []*ir.Buffer{x, scalar(ir.Float32, 0)}, "want [][3]int"},
		{ir.Transpose, ir.Params{"permutation": []int{0, 1}}, []*ir.Buffer{x}, "rank 1"},
		{ir.Reshape, ir.Params{"new_sizes": []int{2}, "dimensions": []int{0}}, []*ir.Buffer{x}, "only None"},
		{ir.Scan, ir.Params{"jaxpr": scanBody(), "length": 1, "num_consts": 0, "num_carry": 0, "reverse": 1}, nil, "want bool"},
		{ir.DebugPrint, ir.Params{"fmt": 3}, nil, "want string"},
	}
	for _, c := range cases {
		_, err := Apply(c.prim, c.params, c.args)
		wantErr(t, err, "eval "+c.prim, c.want)
	}
}

// TestLiteralBuffer checks literal values converted to 0-d buffers of their dtype.
func TestLiteralBuffer(t *testing.T) {
	wantBuf(t, LiteralBuffer(lit(ir.Float32, 0.1)), ir.Float32, nil, float64(float32(0.1)))
	wantBuf(t, LiteralBuffer(lit(ir.BFloat16, 257)), ir.BFloat16, nil, 256)
	wantBuf(t, LiteralBuffer(lit(ir.Int32, 7)), ir.Int32, nil, 7)
	wantBuf(t, LiteralBuffer(lit(ir.Bool, 1)), ir.Bool, nil, 1)
	wantBuf(t, LiteralBuffer(lit(ir.Float64, 0.1)), ir.Float64, nil, 0.1)
}
