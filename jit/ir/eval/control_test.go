package eval

import (
	"bytes"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// builder assembles a jaxpr by hand: ir.Builder under this file's short names.
type builder struct{ ir.Builder }

// av is shorthand for an abstract value.
func av(dt ir.DType, shape ...int) ir.Aval { return ir.Aval{DType: dt, Shape: shape} }

func (b *builder) in(a ir.Aval) *ir.Var           { return b.Input(a) }
func (b *builder) constvar(a ir.Aval) *ir.Var     { return b.Const(a) }
func (b *builder) done(outs ...ir.Atom) *ir.Jaxpr { return b.Jaxpr(outs...) }
func (b *builder) eqn(prim string, params ir.Params, outs []ir.Aval, in ...ir.Atom) []*ir.Var {
	return b.Multi(prim, params, outs, in...)
}
func (b *builder) op(prim string, params ir.Params, out ir.Aval, in ...ir.Atom) *ir.Var {
	return b.Op(prim, params, out, in...)
}

// lit is a scalar literal.
func lit(dt ir.DType, v float64) ir.Literal { return ir.Literal{Value: v, Aval: av(dt)} }

var f32s = av(ir.Float32)

// TestJaxprLiteralsAndConsts evaluates { lambda c ; x . y = mul x 3.0; z = add y c; w = sin z in (z, w, 2.0) }.
func TestJaxprLiteralsAndConsts(t *testing.T) {
	var b builder
	c := b.constvar(av(ir.Float32, 3))
	x := b.in(av(ir.Float32, 3))
	y := b.op(ir.Mul, nil, av(ir.Float32, 3), x, lit(ir.Float32, 3))
	z := b.op(ir.Add, nil, av(ir.Float32, 3), y, c)
	w := b.op(ir.Sin, nil, av(ir.Float32, 3), z)
	j := b.done(z, w, lit(ir.Float32, 2))
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
	var b builder
	w := b.in(f32s)
	s := b.in(f32s)
	n := b.in(av(ir.Int32))
	x := b.in(av(ir.Float32, 2))
	sum := b.op(ir.ReduceSum, ir.Params{"axes": []int{0}}, f32s, x)
	ws := b.op(ir.Mul, nil, f32s, w, sum)
	s2 := b.op(ir.Add, nil, f32s, s, ws)
	n2 := b.op(ir.Add, nil, av(ir.Int32), n, lit(ir.Int32, 1))
	xw := b.op(ir.Mul, nil, av(ir.Float32, 2), x, w)
	return &ir.ClosedJaxpr{Jaxpr: b.done(s2, n2, xw, s), Name: "body"}
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
	var b builder
	i := b.in(av(ir.Int32))
	i2 := b.op(ir.Mul, nil, av(ir.Int32), i, lit(ir.Int32, 2))
	body := &ir.ClosedJaxpr{Jaxpr: b.done(i2, i)}
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
	var c builder
	limit := c.in(av(ir.Int32))
	ci := c.in(av(ir.Int32))
	c.in(f32s)
	lt := c.op(ir.Lt, nil, av(ir.Bool), ci, limit)
	cond = &ir.ClosedJaxpr{Jaxpr: c.done(lt)}
	var b builder
	step := b.in(f32s)
	bi := b.in(av(ir.Int32))
	acc := b.in(f32s)
	i2 := b.op(ir.Add, nil, av(ir.Int32), bi, lit(ir.Int32, 1))
	m := b.op(ir.Mul, nil, f32s, acc, step)
	a2 := b.op(ir.Add, nil, f32s, m, lit(ir.Float32, 1))
	body = &ir.ClosedJaxpr{Jaxpr: b.done(i2, a2)}
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
		var b builder
		x := b.in(av(ir.Float32, 2))
		return &ir.ClosedJaxpr{Jaxpr: b.done(b.op(prim, nil, av(ir.Float32, 2), x, lit(ir.Float32, v)))}
	}
	// Branch 2 uses a captured constant.
	var b2 builder
	k := b2.constvar(av(ir.Float32, 2))
	x2 := b2.in(av(ir.Float32, 2))
	br2 := &ir.ClosedJaxpr{Jaxpr: b2.done(b2.op(ir.Sub, nil, av(ir.Float32, 2), x2, k)), Consts: []*ir.Buffer{vec(ir.Float32, 3, 4)}}
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
	var inner builder
	x := inner.in(av(ir.Int64, 2))
	innerJ := &ir.ClosedJaxpr{Jaxpr: inner.done(inner.op(ir.Mul, nil, av(ir.Int64, 2), x, lit(ir.Int64, 2))), Name: "double"}
	var outer builder
	y := outer.in(av(ir.Int64, 2))
	d := outer.op(ir.Jit, ir.Params{"name": "double", "jaxpr": innerJ}, av(ir.Int64, 2), y)
	outerJ := &ir.ClosedJaxpr{Jaxpr: outer.done(outer.op(ir.Add, nil, av(ir.Int64, 2), d, lit(ir.Int64, 1))), Name: "f"}
	var top builder
	z := top.in(av(ir.Int64, 2))
	j := top.done(top.op(ir.Jit, ir.Params{"name": "f", "jaxpr": outerJ}, av(ir.Int64, 2), z))
	out, err := Jaxpr(j, nil, []*ir.Buffer{i64vec(3, -4)})
	if err != nil {
		t.Fatal(err)
	}
	wantBuf(t, out[0], ir.Int64, []int{2}, 7, -7)
}

// TestScanInsideWhile runs a scan (sum of xs times the counter) inside a while loop.
func TestScanInsideWhile(t *testing.T) {
	// scan body: consts (i f32[]), carry (acc f32[]), x f32[] → acc + i*x, y = none.
	var sb builder
	si := sb.in(f32s)
	sacc := sb.in(f32s)
	sx := sb.in(f32s)
	prod := sb.op(ir.Mul, nil, f32s, si, sx)
	scanJ := &ir.ClosedJaxpr{Jaxpr: sb.done(sb.op(ir.Add, nil, f32s, sacc, prod))}
	// while carry (i f32[], acc f32[]); body const xs f32[3]; cond i < 4.
	var cb builder
	ci := cb.in(f32s)
	cb.in(f32s)
	condJ := &ir.ClosedJaxpr{Jaxpr: cb.done(cb.op(ir.Lt, nil, av(ir.Bool), ci, lit(ir.Float32, 4)))}
	var bb builder
	xs := bb.in(av(ir.Float32, 3))
	bi := bb.in(f32s)
	bacc := bb.in(f32s)
	acc2 := bb.op(ir.Scan, ir.Params{"jaxpr": scanJ, "length": 3, "num_consts": 1, "num_carry": 1, "reverse": false, "unroll": 1}, f32s, bi, bacc, xs)
	i2 := bb.op(ir.Add, nil, f32s, bi, lit(ir.Float32, 1))
	bodyJ := &ir.ClosedJaxpr{Jaxpr: bb.done(i2, acc2)}
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

// TestDebugPrint checks the formatted line written to Stdout.
func TestDebugPrint(t *testing.T) {
	var buf bytes.Buffer
	old := Stdout
	Stdout = &buf
	defer func() { Stdout = old }()
	var b builder
	x := b.in(av(ir.Int32, 2))
	b.eqn(ir.DebugPrint, ir.Params{"fmt": "x: %v", "ordered": false}, nil, x)
	b.eqn(ir.DebugPrint, ir.Params{"fmt": "done\n"}, nil)
	j := b.done(x)
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
	var b builder
	var outs []ir.Atom
	for _, x := range xs {
		outs = append(outs, b.in(ir.Aval{DType: x.DType, Shape: x.Shape[1:]}))
	}
	body := &ir.ClosedJaxpr{Jaxpr: b.done(outs...)}
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
