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
	var b ir.Builder
	x := b.Input(av(ir.Float32, n))
	m := b.Op(ir.Mul, nil, av(ir.Float32, n), x, lit(ir.Float32, mul))
	return b.Done("", b.Op(ir.Add, nil, av(ir.Float32, n), m, lit(ir.Float32, add)))
}

func TestJitAndCond(t *testing.T) {
	a := av(ir.Float32, cfN)
	var b ir.Builder
	i := b.Input(av(ir.Int32))
	x := b.Input(a)
	j1 := b.Op(ir.Jit, ir.Params{"name": "inner", "jaxpr": affine(cfN, 2, 1)}, a, x)
	j2 := b.Op(ir.Jit, ir.Params{"name": "inner", "jaxpr": affine(cfN, 2, 1)}, a, j1)
	c := b.Op(ir.Cond, ir.Params{"branches": []*ir.ClosedJaxpr{affine(cfN, 1, 1), affine(cfN, 3, 0), affine(cfN, -1, 0)}}, a, i, j2)
	cj := b.Done("", c, j1)
	for _, idx := range []float64{-4, 0, 1, 2, 9} {
		checkAgainstEval(t, cj, []*ir.Buffer{ir.ScalarBuffer(ir.Int32, idx), testInput(ir.Float32, cfN, 0)}, 0)
	}
}

// whileJaxpr loops (i, x) -> (i+1, sin(x)*1.5 + 1) while i < limit.
func whileJaxpr(n int) *ir.ClosedJaxpr {
	a := av(ir.Float32, n)
	var cb ir.Builder
	lim := cb.Input(av(ir.Int32))
	ci := cb.Input(av(ir.Int32))
	cb.Input(a)
	condJ := cb.Done("", cb.Op(ir.Lt, nil, av(ir.Bool), ci, lim))
	var bb ir.Builder
	bi := bb.Input(av(ir.Int32))
	bx := bb.Input(a)
	s := bb.Op(ir.Sin, nil, a, bx)
	m := bb.Op(ir.Mul, nil, a, s, lit(ir.Float32, 1.5))
	bodyJ := bb.Done("", bb.Op(ir.Add, nil, av(ir.Int32), bi, lit(ir.Int32, 1)), bb.Op(ir.Add, nil, a, m, lit(ir.Float32, 1)))
	var b ir.Builder
	l := b.Input(av(ir.Int32))
	x := b.Input(a)
	outs := []*ir.Var{ir.NewVar(av(ir.Int32)), ir.NewVar(a)}
	b.Append(&ir.Eqn{Prim: ir.While, Params: ir.Params{"cond_jaxpr": condJ, "body_jaxpr": bodyJ,
		"cond_nconsts": 1, "body_nconsts": 0}, In: []ir.Atom{l, lit(ir.Int32, 0), x}, Out: outs})
	return b.Done("", outs[0], outs[1])
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
	var bb ir.Builder
	w := bb.Input(a)
	c := bb.Input(a)
	x := bb.Input(a)
	xw := bb.Op(ir.Mul, nil, a, x, w)
	c2 := bb.Op(ir.Add, nil, a, c, xw)
	y := bb.Op(ir.Mul, nil, a, c, lit(ir.Float32, 2))
	if print {
		r := bb.Op(ir.ReduceSum, ir.Params{"axes": []int{0}}, av(ir.Float32), c)
		bb.Append(&ir.Eqn{Prim: ir.DebugPrint, Params: ir.Params{"fmt": "carry sum %v", "ordered": false}, In: []ir.Atom{r}})
	}
	body := bb.Done("", c2, y)
	var b ir.Builder
	wv := b.Input(a)
	cv := b.Input(a)
	xs := b.Input(av(ir.Float32, length, n))
	outs := []*ir.Var{ir.NewVar(a), ir.NewVar(av(ir.Float32, length, n))}
	b.Append(&ir.Eqn{Prim: ir.Scan, Params: ir.Params{"jaxpr": body, "length": length, "num_consts": 1,
		"num_carry": 1, "reverse": reverse, "unroll": 1}, In: []ir.Atom{wv, cv, xs}, Out: outs})
	return b.Done("", outs[0], outs[1])
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
	eval.SetPrintOutput(&out)
	defer eval.SetPrintOutput(nil)
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
	var b ir.Builder
	x := b.Input(av(f, 6, 4))
	v := b.Input(av(f, 4))
	e := b.Op(ir.Exp, nil, av(f, 6, 4), x)
	r := b.Op(ir.Reshape, ir.Params{"new_sizes": []int{4, 6}, "dimensions": nil}, av(f, 4, 6), e)
	tr := b.Op(ir.Transpose, ir.Params{"permutation": []int{1, 0}}, av(f, 6, 4), r)
	bv := b.Op(ir.BroadcastInDim, ir.Params{"shape": []int{6, 4}, "broadcast_dimensions": []int{1}}, av(f, 6, 4), v)
	s := b.Op(ir.Sub, nil, av(f, 6, 4), tr, bv)
	sl := b.Op(ir.Slice, ir.Params{"start_indices": []int{1, 0}, "limit_indices": []int{3, 4}, "strides": nil}, av(f, 2, 4), s)
	cc := b.Op(ir.Concatenate, ir.Params{"dimension": 0}, av(f, 8, 4), s, sl)
	pd := b.Op(ir.Pad, ir.Params{"padding_config": [][3]int{{1, 1, 0}, {0, 0, 0}}}, av(f, 10, 4), cc, lit(f, 0))
	dg := b.Op(ir.DotGeneral, ir.Params{"dimension_numbers": ir.DotDims{LhsContract: []int{1}, RhsContract: []int{0}},
		"preferred_element_type": f}, av(f, 10), pd, v)
	sq := b.Op(ir.Reshape, ir.Params{"new_sizes": []int{1, 10}, "dimensions": nil}, av(f, 1, 10), dg)
	q := b.Op(ir.Squeeze, ir.Params{"dimensions": []int{0}}, av(f, 10), sq)
	tn := b.Op(ir.Tanh, nil, av(f, 10), q)
	checkAgainstEval(t, b.Done("", tn, r, sq), []*ir.Buffer{testInput(f, 0, 2, 6, 4), testInput(f, 4, 0)}, 0)
}
