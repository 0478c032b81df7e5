package eval

import (
	"bytes"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// av is shorthand for an abstract value.
func av(dt ir.DType, shape ...int) ir.Aval { return ir.Aval{DType: dt, Shape: shape} }

// lit is a scalar literal.
func lit(dt ir.DType, v float64) ir.Literal { return ir.Literal{Value: v, Aval: av(dt)} }

var f32s = av(ir.Float32)

// TestJaxprLiteralsAndConsts evaluates { lambda c ; x . y = mul x 3.0; z = add y c; w = sin z in (z, w, 2.0) }.
func TestJaxprLiteralsAndConsts(t *testing.T) {
	var b ir.Builder
	c := b.Const(av(ir.Float32, 3))
	x := b.Input(av(ir.Float32, 3))
	y := b.Op(ir.Mul, nil, av(ir.Float32, 3), x, lit(ir.Float32, 3))
	z := b.Op(ir.Add, nil, av(ir.Float32, 3), y, c)
	w := b.Op(ir.Sin, nil, av(ir.Float32, 3), z)
	j := b.Jaxpr(z, w, lit(ir.Float32, 2))
	out, err := Closed(&ir.ClosedJaxpr{Jaxpr: j, Consts: []*ir.Buffer{vec(ir.Float32, 10, 20, 30)}}, []*ir.Buffer{vec(ir.Float32, 1, 2, 3)})
	if err != nil {
		t.Fatal(err)
	}
	wantBuf(t, out[0], ir.Float32, []int{3}, 13, 26, 39)
	wantBuf(t, out[1], ir.Float32, []int{3}, rnd(ir.Float32, sin(13)), rnd(ir.Float32, sin(26)), rnd(ir.Float32, sin(39)))
	wantBuf(t, out[2], ir.Float32, nil, 2)
}

// scanBody is the body of a scan with 1 const (w), 2 carries (s f32[], n i32[])
// and 1 x (f32[2]): carry' = (s + w*sum(x), n + 1); ys = (x*w, s).
func scanBody() *ir.ClosedJaxpr {
	var b ir.Builder
	w := b.Input(f32s)
	s := b.Input(f32s)
	n := b.Input(av(ir.Int32))
	x := b.Input(av(ir.Float32, 2))
	sum := b.Op(ir.ReduceSum, ir.Params{"axes": []int{0}}, f32s, x)
	ws := b.Op(ir.Mul, nil, f32s, w, sum)
	s2 := b.Op(ir.Add, nil, f32s, s, ws)
	n2 := b.Op(ir.Add, nil, av(ir.Int32), n, lit(ir.Int32, 1))
	xw := b.Op(ir.Mul, nil, av(ir.Float32, 2), x, w)
	return &ir.ClosedJaxpr{Jaxpr: b.Jaxpr(s2, n2, xw, s), Name: "body"}
}

// TestScan compares scan, forward and reverse, with a hand-written Go loop.
func TestScan(t *testing.T) {
	xs := fbuf(ir.Float32, []int{4, 2}, 1, 2, 3, 4, 5, 6, 7, 8)
	for _, reverse := range []bool{false, true} {
		params := ir.Params{"jaxpr": scanBody(), "length": 4, "num_consts": 1, "num_carry": 2, "reverse": reverse, "unroll": 1}
		out, err := Apply(ir.Scan, params, []*ir.Buffer{scalar(ir.Float32, 0.5), scalar(ir.Float32, 100), scalar(ir.Int32, 7), xs})
		if err != nil {
			t.Fatal(err)
		}
		// The reference loop.
		s, n := float32(100), int32(7)
		ys0 := make([]float64, 8)
		ys1 := make([]float64, 4)
		for t := range 4 {
			i := t
			if reverse {
				i = 3 - t
			}
			x0, x1 := float32(xs.At(2*i)), float32(xs.At(2*i+1))
			ys0[2*i], ys0[2*i+1] = float64(x0*0.5), float64(x1*0.5)
			ys1[i] = float64(s)
			s += 0.5 * (x0 + x1)
			n++
		}
		if len(out) != 4 {
			t.Fatalf("reverse=%v: %d results, want 4", reverse, len(out))
		}
		wantBuf(t, out[0], ir.Float32, nil, float64(s))
		wantBuf(t, out[1], ir.Int32, nil, float64(n))
		wantBuf(t, out[2], ir.Float32, []int{4, 2}, ys0...)
		wantBuf(t, out[3], ir.Float32, []int{4}, ys1...)
	}
}

// TestScanNoXs checks a scan with length only (JAX's xs=None) and zero length.
func TestScanNoXs(t *testing.T) {
	var b ir.Builder
	i := b.Input(av(ir.Int32))
	i2 := b.Op(ir.Mul, nil, av(ir.Int32), i, lit(ir.Int32, 2))
	body := &ir.ClosedJaxpr{Jaxpr: b.Jaxpr(i2, i)}
	for _, length := range []int{5, 0} {
		out, err := Apply(ir.Scan, ir.Params{"jaxpr": body, "length": length, "num_consts": 0, "num_carry": 1, "reverse": false}, []*ir.Buffer{scalar(ir.Int32, 1)})
		if err != nil {
			t.Fatal(err)
		}
		if length == 5 {
			wantBuf(t, out[0], ir.Int32, nil, 32)
			wantBuf(t, out[1], ir.Int32, []int{5}, 1, 2, 4, 8, 16)
		} else {
			wantBuf(t, out[0], ir.Int32, nil, 1)
			wantBuf(t, out[1], ir.Int32, []int{0})
		}
	}
	_, err := Apply(ir.Scan, ir.Params{"jaxpr": body, "length": 3, "num_consts": 0, "num_carry": 1}, []*ir.Buffer{scalar(ir.Int32, 1), vec(ir.Int32, 1, 2)})
	wantErr(t, err, "eval scan", "leading dimension 3")
}

// whileParts builds cond (i < limit) and body (i+1, acc*step + 1) with one
// cond const (limit i32[]) and one body const (step f32[]).
func whileParts() (cond, body *ir.ClosedJaxpr) {
	var c ir.Builder
	limit := c.Input(av(ir.Int32))
	ci := c.Input(av(ir.Int32))
	c.Input(f32s)
	lt := c.Op(ir.Lt, nil, av(ir.Bool), ci, limit)
	cond = &ir.ClosedJaxpr{Jaxpr: c.Jaxpr(lt)}
	var b ir.Builder
	step := b.Input(f32s)
	bi := b.Input(av(ir.Int32))
	acc := b.Input(f32s)
	i2 := b.Op(ir.Add, nil, av(ir.Int32), bi, lit(ir.Int32, 1))
	m := b.Op(ir.Mul, nil, f32s, acc, step)
	a2 := b.Op(ir.Add, nil, f32s, m, lit(ir.Float32, 1))
	body = &ir.ClosedJaxpr{Jaxpr: b.Jaxpr(i2, a2)}
	return cond, body
}

// TestWhile compares while with consts against a Go loop, including zero iterations.
func TestWhile(t *testing.T) {
	cond, body := whileParts()
	params := ir.Params{"cond_jaxpr": cond, "body_jaxpr": body, "cond_nconsts": 1, "body_nconsts": 1}
	for _, limit := range []int32{5, -1} {
		out, err := Apply(ir.While, params, []*ir.Buffer{scalar(ir.Int32, float64(limit)), scalar(ir.Float32, 1.5), scalar(ir.Int32, 0), scalar(ir.Float32, 2)})
		if err != nil {
			t.Fatal(err)
		}
		i, acc := int32(0), float32(2)
		for i < limit {
			i, acc = i+1, acc*1.5+1
		}
		wantBuf(t, out[0], ir.Int32, nil, float64(i))
		wantBuf(t, out[1], ir.Float32, nil, float64(acc))
	}
	_, err := Apply(ir.While, params, []*ir.Buffer{scalar(ir.Int32, 1)})
	wantErr(t, err, "eval while", "do not fit")
}

// TestCond checks three branches with in-range, negative and too-large indices.
func TestCond(t *testing.T) {
	mk := func(prim string, v float64) *ir.ClosedJaxpr {
		var b ir.Builder
		x := b.Input(av(ir.Float32, 2))
		return &ir.ClosedJaxpr{Jaxpr: b.Jaxpr(b.Op(prim, nil, av(ir.Float32, 2), x, lit(ir.Float32, v)))}
	}
	// Branch 2 uses a captured constant.
	var b2 ir.Builder
	k := b2.Const(av(ir.Float32, 2))
	x2 := b2.Input(av(ir.Float32, 2))
	br2 := &ir.ClosedJaxpr{Jaxpr: b2.Jaxpr(b2.Op(ir.Sub, nil, av(ir.Float32, 2), x2, k)), Consts: []*ir.Buffer{vec(ir.Float32, 3, 4)}}
	params := ir.Params{"branches": []*ir.ClosedJaxpr{mk(ir.Add, 1), mk(ir.Mul, 2), br2}}
	x := vec(ir.Float32, 10, 20)
	for idx, want := range map[int][]float64{-3: {11, 21}, 0: {11, 21}, 1: {20, 40}, 2: {7, 16}, 9: {7, 16}} {
		out, err := Apply(ir.Cond, params, []*ir.Buffer{scalar(ir.Int32, float64(idx)), x})
		if err != nil {
			t.Fatal(err)
		}
		wantBuf(t, out[0], ir.Float32, []int{2}, want...)
	}
	_, err := Apply(ir.Cond, params, []*ir.Buffer{scalar(ir.Float32, 0), x})
	wantErr(t, err, "eval cond", "branch index")
	_, err = Apply(ir.Cond, params, []*ir.Buffer{scalar(ir.Int32, 0)})
	wantErr(t, err, "eval cond", "branch 0", "1 inputs but got 0")
}

// TestNestedJit evaluates jit(jit(x*2)+1).
func TestNestedJit(t *testing.T) {
	var inner ir.Builder
	x := inner.Input(av(ir.Int64, 2))
	innerJ := &ir.ClosedJaxpr{Jaxpr: inner.Jaxpr(inner.Op(ir.Mul, nil, av(ir.Int64, 2), x, lit(ir.Int64, 2))), Name: "double"}
	var outer ir.Builder
	y := outer.Input(av(ir.Int64, 2))
	d := outer.Op(ir.Jit, ir.Params{"name": "double", "jaxpr": innerJ}, av(ir.Int64, 2), y)
	outerJ := &ir.ClosedJaxpr{Jaxpr: outer.Jaxpr(outer.Op(ir.Add, nil, av(ir.Int64, 2), d, lit(ir.Int64, 1))), Name: "f"}
	var top ir.Builder
	z := top.Input(av(ir.Int64, 2))
	j := top.Jaxpr(top.Op(ir.Jit, ir.Params{"name": "f", "jaxpr": outerJ}, av(ir.Int64, 2), z))
	out, err := Jaxpr(j, nil, []*ir.Buffer{i64vec(3, -4)})
	if err != nil {
		t.Fatal(err)
	}
	wantBuf(t, out[0], ir.Int64, []int{2}, 7, -7)
}

// TestScanInsideWhile runs a scan (sum of xs times the counter) inside a while loop.
func TestScanInsideWhile(t *testing.T) {
	// scan body: consts (i f32[]), carry (acc f32[]), x f32[] → acc + i*x, y = none.
	var sb ir.Builder
	si := sb.Input(f32s)
	sacc := sb.Input(f32s)
	sx := sb.Input(f32s)
	prod := sb.Op(ir.Mul, nil, f32s, si, sx)
	scanJ := &ir.ClosedJaxpr{Jaxpr: sb.Jaxpr(sb.Op(ir.Add, nil, f32s, sacc, prod))}
	// while carry (i f32[], acc f32[]); body const xs f32[3]; cond i < 4.
	var cb ir.Builder
	ci := cb.Input(f32s)
	cb.Input(f32s)
	condJ := &ir.ClosedJaxpr{Jaxpr: cb.Jaxpr(cb.Op(ir.Lt, nil, av(ir.Bool), ci, lit(ir.Float32, 4)))}
	var bb ir.Builder
	xs := bb.Input(av(ir.Float32, 3))
	bi := bb.Input(f32s)
	bacc := bb.Input(f32s)
	acc2 := bb.Op(ir.Scan, ir.Params{"jaxpr": scanJ, "length": 3, "num_consts": 1, "num_carry": 1, "reverse": false, "unroll": 1}, f32s, bi, bacc, xs)
	i2 := bb.Op(ir.Add, nil, f32s, bi, lit(ir.Float32, 1))
	bodyJ := &ir.ClosedJaxpr{Jaxpr: bb.Jaxpr(i2, acc2)}
	out, err := Apply(ir.While, ir.Params{"cond_jaxpr": condJ, "body_jaxpr": bodyJ, "cond_nconsts": 0, "body_nconsts": 1},
		[]*ir.Buffer{vec(ir.Float32, 1, 2, 3), scalar(ir.Float32, 0), scalar(ir.Float32, 0)})
	if err != nil {
		t.Fatal(err)
	}
	acc := float32(0)
	for i := float32(0); i < 4; i++ {
		for _, x := range []float32{1, 2, 3} {
			acc += i * x
		}
	}
	wantBuf(t, out[0], ir.Float32, nil, 4)
	wantBuf(t, out[1], ir.Float32, nil, float64(acc))
}

// TestDebugPrint checks the formatted line written to the print output.
func TestDebugPrint(t *testing.T) {
	var buf bytes.Buffer
	SetPrintOutput(&buf)
	defer SetPrintOutput(nil)
	var b ir.Builder
	x := b.Input(av(ir.Int32, 2))
	b.Multi(ir.DebugPrint, ir.Params{"fmt": "x: %v", "ordered": false}, nil, x)
	b.Multi(ir.DebugPrint, ir.Params{"fmt": "done\n"}, nil)
	j := b.Jaxpr(x)
	if _, err := Jaxpr(j, nil, []*ir.Buffer{i32vec(1, 2)}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "x: [1 2]\ndone\n" {
		t.Fatalf("printed %q, want %q", got, "x: [1 2]\ndone\n")
	}
	_, err := Apply(ir.DebugPrint, nil, nil)
	wantErr(t, err, "eval debug_print", "fmt")
}

// TestScanStacksEveryDType scans over int64, bool and f16 xs, returning each
// slice as a y, and checks the stacked ys equal the xs.
func TestScanStacksEveryDType(t *testing.T) {
	xs := []*ir.Buffer{
		{DType: ir.Int64, Shape: []int{3, 2}, Data: []int64{1, 2, 3, 4, 5, 6}},
		{DType: ir.Bool, Shape: []int{3}, Data: []bool{true, false, true}},
		fbuf(ir.Float16, []int{3, 1}, 0.5, 1.5, 2.5),
		{DType: ir.Int32, Shape: []int{3}, Data: []int32{7, 8, 9}},
		fbuf(ir.Float64, []int{3}, 0.25, 0.5, 0.75),
	}
	var b ir.Builder
	var outs []ir.Atom
	for _, x := range xs {
		outs = append(outs, b.Input(ir.Aval{DType: x.DType, Shape: x.Shape[1:]}))
	}
	body := &ir.ClosedJaxpr{Jaxpr: b.Jaxpr(outs...)}
	got, err := Apply(ir.Scan, ir.Params{"jaxpr": body, "length": 3, "num_consts": 0, "num_carry": 0, "reverse": true}, xs)
	if err != nil {
		t.Fatal(err)
	}
	for k, x := range xs {
		want := make([]float64, x.Len())
		for i := range want {
			want[i] = x.At(i)
		}
		wantBuf(t, got[k], x.DType, x.Shape, want...)
	}
}
