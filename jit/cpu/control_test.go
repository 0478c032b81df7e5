package cpu

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

const cfN = 3000

// affine returns { x:f32[n] . x*mul + add } as a closed jaxpr.
func affine(n int, mul, add float64) *ir.ClosedJaxpr {
	var b jb
	x := b.in(av(ir.Float32, n))
	m := b.op(ir.Mul, av(ir.Float32, n), nil, x, lit(ir.Float32, mul))
	return b.ret(b.op(ir.Add, av(ir.Float32, n), nil, m, lit(ir.Float32, add)))
}

func TestJitAndCond(t *testing.T) {
	a := av(ir.Float32, cfN)
	var b jb
	i := b.in(av(ir.Int32))
	x := b.in(a)
	j1 := b.op(ir.Jit, a, ir.Params{"name": "inner", "jaxpr": affine(cfN, 2, 1)}, x)
	j2 := b.op(ir.Jit, a, ir.Params{"name": "inner", "jaxpr": affine(cfN, 2, 1)}, j1)
	c := b.op(ir.Cond, a, ir.Params{"branches": []*ir.ClosedJaxpr{affine(cfN, 1, 1), affine(cfN, 3, 0), affine(cfN, -1, 0)}}, i, j2)
	cj := b.ret(c, j1)
	for _, idx := range []float64{-4, 0, 1, 2, 9} {
		checkAgainstEval(t, cj, []*ir.Buffer{ir.ScalarBuffer(ir.Int32, idx), testInput(ir.Float32, cfN, 0)}, 0)
	}
}

// whileJaxpr loops (i, x) -> (i+1, sin(x)*1.5 + 1) while i < limit.
func whileJaxpr(n int) *ir.ClosedJaxpr {
	a := av(ir.Float32, n)
	var cb jb
	lim := cb.in(av(ir.Int32))
	ci := cb.in(av(ir.Int32))
	cb.in(a)
	condJ := cb.ret(cb.op(ir.Lt, av(ir.Bool), nil, ci, lim))
	var bb jb
	bi := bb.in(av(ir.Int32))
	bx := bb.in(a)
	s := bb.op(ir.Sin, a, nil, bx)
	m := bb.op(ir.Mul, a, nil, s, lit(ir.Float32, 1.5))
	bodyJ := bb.ret(bb.op(ir.Add, av(ir.Int32), nil, bi, lit(ir.Int32, 1)), bb.op(ir.Add, a, nil, m, lit(ir.Float32, 1)))
	var b jb
	l := b.in(av(ir.Int32))
	x := b.in(a)
	outs := []*ir.Var{ir.NewVar(av(ir.Int32)), ir.NewVar(a)}
	b.Append(&ir.Eqn{Prim: ir.While, Params: ir.Params{"cond_jaxpr": condJ, "body_jaxpr": bodyJ,
		"cond_nconsts": 1, "body_nconsts": 0}, In: []ir.Atom{l, lit(ir.Int32, 0), x}, Out: outs})
	return b.ret(outs[0], outs[1])
}

func TestWhile(t *testing.T) {
	cj := whileJaxpr(cfN)
	for _, limit := range []float64{0, 1, 7} {
		checkAgainstEval(t, cj, []*ir.Buffer{ir.ScalarBuffer(ir.Int32, limit), testInput(ir.Float32, cfN, 0)}, 0)
	}
	// The body is compiled once into a fused kernel, reused by every iteration.
	_, l := compileCJ(t, cj)
	cs := l.prog.steps[0].(*ctrlStep)
	if len(cs.progs) != 2 || len(cs.progs[1].steps) == 0 {
		t.Fatal("while bodies not compiled")
	}
	if _, ok := cs.progs[1].steps[0].(*kernel); !ok {
		t.Fatalf("while body step is %T, want a fused kernel", cs.progs[1].steps[0])
	}
	if !strings.Contains(l.Text(), "program while body 1") {
		t.Fatalf("listing lacks the nested body:\n%s", l.Text())
	}
}

// scanJaxpr: consts w, carry c, xs [length, n]: c' = c + x*w, y = c*2 (and
// a debug_print of the carry when print is set).
func scanJaxpr(n, length int, reverse, print bool) *ir.ClosedJaxpr {
	a := av(ir.Float32, n)
	var bb jb
	w := bb.in(a)
	c := bb.in(a)
	x := bb.in(a)
	xw := bb.op(ir.Mul, a, nil, x, w)
	c2 := bb.op(ir.Add, a, nil, c, xw)
	y := bb.op(ir.Mul, a, nil, c, lit(ir.Float32, 2))
	if print {
		r := bb.op(ir.ReduceSum, av(ir.Float32), ir.Params{"axes": []int{0}}, c)
		bb.Append(&ir.Eqn{Prim: ir.DebugPrint, Params: ir.Params{"fmt": "carry sum %v", "ordered": false}, In: []ir.Atom{r}})
	}
	body := bb.ret(c2, y)
	var b jb
	wv := b.in(a)
	cv := b.in(a)
	xs := b.in(av(ir.Float32, length, n))
	outs := []*ir.Var{ir.NewVar(a), ir.NewVar(av(ir.Float32, length, n))}
	b.Append(&ir.Eqn{Prim: ir.Scan, Params: ir.Params{"jaxpr": body, "length": length, "num_consts": 1,
		"num_carry": 1, "reverse": reverse, "unroll": 1}, In: []ir.Atom{wv, cv, xs}, Out: outs})
	return b.ret(outs[0], outs[1])
}

func TestScan(t *testing.T) {
	for _, rev := range []bool{false, true} {
		for _, length := range []int{0, 1, 6} {
			cj := scanJaxpr(cfN, length, rev, false)
			checkAgainstEval(t, cj, []*ir.Buffer{testInput(ir.Float32, cfN, 0), testInput(ir.Float32, cfN, 3),
				testInput(ir.Float32, 0, 7, length, cfN)}, 0)
		}
	}
}

func TestDebugPrintAtRunTime(t *testing.T) {
	var out bytes.Buffer
	old := eval.Stdout
	eval.Stdout = &out
	defer func() { eval.Stdout = old }()
	cj := scanJaxpr(4, 3, false, true)
	ex, _ := compileCJ(t, cj)
	if out.Len() != 0 {
		t.Fatalf("printed while compiling: %q", out.String())
	}
	args := []*ir.Buffer{arange(ir.Float32, 4, 1, 0), arange(ir.Float32, 4, 0, 1), ir.NewBuffer(ir.Float32, []int{3, 4})}
	for call := 0; call < 2; call++ {
		if _, err := ex.Execute(args); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Count(out.String(), "carry sum"); got != 6 {
		t.Fatalf("debug_print printed %d lines over 2 calls of 3 iterations, want 6:\n%s", got, out.String())
	}
}

func TestUnfusedPrimitives(t *testing.T) {
	f := ir.Float32
	var b jb
	x := b.in(av(f, 6, 4))
	v := b.in(av(f, 4))
	e := b.op(ir.Exp, av(f, 6, 4), nil, x)
	r := b.op(ir.Reshape, av(f, 4, 6), ir.Params{"new_sizes": []int{4, 6}, "dimensions": nil}, e)
	tr := b.op(ir.Transpose, av(f, 6, 4), ir.Params{"permutation": []int{1, 0}}, r)
	bv := b.op(ir.BroadcastInDim, av(f, 6, 4), ir.Params{"shape": []int{6, 4}, "broadcast_dimensions": []int{1}}, v)
	s := b.op(ir.Sub, av(f, 6, 4), nil, tr, bv)
	sl := b.op(ir.Slice, av(f, 2, 4), ir.Params{"start_indices": []int{1, 0}, "limit_indices": []int{3, 4}, "strides": nil}, s)
	cc := b.op(ir.Concatenate, av(f, 8, 4), ir.Params{"dimension": 0}, s, sl)
	pd := b.op(ir.Pad, av(f, 10, 4), ir.Params{"padding_config": [][3]int{{1, 1, 0}, {0, 0, 0}}}, cc, lit(f, 0))
	dg := b.op(ir.DotGeneral, av(f, 10), ir.Params{"dimension_numbers": ir.DotDims{LhsContract: []int{1}, RhsContract: []int{0}},
		"preferred_element_type": f}, pd, v)
	sq := b.op(ir.Reshape, av(f, 1, 10), ir.Params{"new_sizes": []int{1, 10}, "dimensions": nil}, dg)
	q := b.op(ir.Squeeze, av(f, 10), ir.Params{"dimensions": []int{0}}, sq)
	tn := b.op(ir.Tanh, av(f, 10), nil, q)
	checkAgainstEval(t, b.ret(tn, r, sq), []*ir.Buffer{testInput(f, 0, 2, 6, 4), testInput(f, 4, 0)}, 0)
}
