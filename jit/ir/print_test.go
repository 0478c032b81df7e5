package ir

import (
	"math"
	"strings"
	"testing"
)

// Builders for hand-written jaxprs.

func f32(shape ...int) *Var { return NewVar(Aval{Shape: shape, DType: Float32}) }
func i32(shape ...int) *Var { return NewVar(Aval{Shape: shape, DType: Int32}) }
func boolv(shape ...int) *Var {
	return NewVar(Aval{Shape: shape, DType: Bool})
}
func lit(dt DType, x float64) Literal { return Literal{Value: x, Aval: Aval{DType: dt}} }
func in(as ...Atom) []Atom            { return as }
func eq(out []*Var, prim string, ps Params, ins ...Atom) *Eqn {
	return &Eqn{Prim: prim, Params: ps, In: ins, Out: out}
}
func outs(vs ...*Var) []*Var       { return vs }
func closed(j *Jaxpr) *ClosedJaxpr { return &ClosedJaxpr{Jaxpr: j} }
func cet(dt DType) Params {
	return Params{"new_dtype": dt, "weak_type": false, "sharding": nil}
}
func bcast(shape ...int) Params {
	return Params{"shape": shape, "broadcast_dimensions": []int{}, "sharding": nil}
}

func checkPrint(t *testing.T, j *Jaxpr, want string) {
	t.Helper()
	want = strings.TrimPrefix(want, "\n")
	if got := j.String(); got != want {
		t.Errorf("printed jaxpr differs\ngot:\n%s\nwant:\n%s", got, want)
	}
}

// R1: docs "The jaxpr language", func1.
func TestPrintR1(t *testing.T) {
	a, b, c, d, e, f := f32(8), f32(8), f32(8), f32(8), f32(8), f32()
	j := &Jaxpr{Invars: outs(a, b), Outvars: in(f), Eqns: []*Eqn{
		eq(outs(c), Sin, nil, b),
		eq(outs(d), Mul, nil, c, lit(Float32, 3)),
		eq(outs(e), Add, nil, a, d),
		eq(outs(f), ReduceSum, Params{"axes": []int{0}, "out_sharding": nil}, e),
	}}
	checkPrint(t, j, `
{ lambda ; a:f32[8] b:f32[8]. let
    c:f32[8] = sin b
    d:f32[8] = mul c 3.0:f32[]
    e:f32[8] = add a d
    f:f32[] = reduce_sum[axes=(0,) out_sharding=None] e
  in (f,) }`)
}

// R2: func7, lax.cond.
func TestPrintR2(t *testing.T) {
	e, f := f32(), f32()
	br0 := &Jaxpr{Invars: outs(e), Outvars: in(f), Eqns: []*Eqn{eq(outs(f), Sub, nil, e, lit(Float32, 3))}}
	g, h := f32(), f32()
	br1 := &Jaxpr{Invars: outs(g), Outvars: in(h), Eqns: []*Eqn{eq(outs(h), Add, nil, g, lit(Float32, 3))}}
	a, b, c, d := f32(), boolv(), i32(), f32()
	j := &Jaxpr{Invars: outs(a), Outvars: in(d), Eqns: []*Eqn{
		eq(outs(b), Ge, nil, a, lit(Float32, 0)),
		eq(outs(c), ConvertElementType, cet(Int32), b),
		eq(outs(d), Cond, Params{"branches": []*ClosedJaxpr{closed(br0), closed(br1)}}, c, a),
	}}
	checkPrint(t, j, `
{ lambda ; a:f32[]. let
    b:bool[] = ge a 0.0:f32[]
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:f32[] = cond[
      branches=(
        { lambda ; e:f32[]. let f:f32[] = sub e 3.0:f32[] in (f,) }
        { lambda ; g:f32[]. let h:f32[] = add g 3.0:f32[] in (h,) }
      )
    ] c a
  in (d,) }`)
}

// R3: func10, fori_loop with a traced bound (while).
func TestPrintR3(t *testing.T) {
	f, g, h, i, jv := f32(16), f32(16), i32(), i32(), f32(16)
	k, l, m, n := i32(), f32(16), f32(16), f32(16)
	body := &Jaxpr{Invars: outs(f, g, h, i, jv), Outvars: in(k, i, n), Eqns: []*Eqn{
		eq(outs(k), Add, nil, h, lit(Int32, 1)),
		eq(outs(l), Mul, nil, f, lit(Float32, 3)),
		eq(outs(m), Add, nil, jv, l),
		eq(outs(n), Add, nil, m, g),
	}}
	o, p, q, r := i32(), i32(), f32(16), boolv()
	cond := &Jaxpr{Invars: outs(o, p, q), Outvars: in(r), Eqns: []*Eqn{eq(outs(r), Lt, nil, o, p)}}
	a, b, c, d := f32(16), i32(), f32(16), f32(16)
	x0, x1, e := i32(), i32(), f32(16)
	j := &Jaxpr{Invars: outs(a, b), Outvars: in(e), Eqns: []*Eqn{
		eq(outs(c), BroadcastInDim, bcast(16), lit(Float32, 1)),
		eq(outs(d), Add, nil, a, c),
		eq(outs(x0, x1, e), While, Params{
			"body_jaxpr": closed(body), "body_nconsts": 2,
			"cond_jaxpr": closed(cond), "cond_nconsts": 0,
		}, c, a, lit(Int32, 0), b, d),
	}}
	checkPrint(t, j, `
{ lambda ; a:f32[16] b:i32[]. let
    c:f32[16] = broadcast_in_dim 1.0:f32[]
    d:f32[16] = add a c
    _:i32[] _:i32[] e:f32[16] = while[
      body_jaxpr={ lambda ; f:f32[16] g:f32[16] h:i32[] i:i32[] j:f32[16]. let
          k:i32[] = add h 1:i32[]
          l:f32[16] = mul f 3.0:f32[]
          m:f32[16] = add j l
          n:f32[16] = add m g
        in (k, i, n) }
      body_nconsts=2
      cond_jaxpr={ lambda ; o:i32[] p:i32[] q:f32[16]. let
          r:bool[] = lt o p
        in (r,) }
      cond_nconsts=0
    ] c a 0:i32[] b d
  in (e,) }`)
}

// R4: func11, lax.scan (0.10 parameter set).
func TestPrintR4(t *testing.T) {
	f, g, h, i := f32(), f32(), f32(), f32()
	jv, k, l, m, n := f32(), f32(), f32(), f32(), f32()
	body := &Jaxpr{Invars: outs(f, g, h, i), Outvars: in(n, g), Eqns: []*Eqn{
		eq(outs(jv), Mul, nil, h, i),
		eq(outs(k), ConvertElementType, cet(Float32), g),
		eq(outs(l), Add, nil, k, jv),
		eq(outs(m), ConvertElementType, cet(Float32), f),
		eq(outs(n), Add, nil, l, m),
	}}
	a, b, c, d, e := f32(16), f32(), f32(16), f32(), f32(16)
	j := &Jaxpr{Invars: outs(a, b), Outvars: in(d, e), Eqns: []*Eqn{
		eq(outs(c), BroadcastInDim, bcast(16), lit(Float32, 1)),
		eq(outs(d, e), Scan, Params{
			"jaxpr": closed(body), "length": 16, "num_carry": 1, "num_consts": 1,
			"reverse": false, "unroll": 1,
		}, b, lit(Float32, 0), a, c),
	}}
	checkPrint(t, j, `
{ lambda ; a:f32[16] b:f32[]. let
    c:f32[16] = broadcast_in_dim 1.0:f32[]
    d:f32[] e:f32[16] = scan[
      jaxpr={ lambda ; f:f32[] g:f32[] h:f32[] i:f32[]. let
          j:f32[] = mul h i
          k:f32[] = convert_element_type[new_dtype=float32 weak_type=False] g
          l:f32[] = add k j
          m:f32[] = convert_element_type[new_dtype=float32 weak_type=False] f
          n:f32[] = add l m
        in (n, g) }
      length=16
      num_carry=1
      num_consts=1
      reverse=False
      unroll=1
    ] b 0.0:f32[] a c
  in (d, e) }`)
}

// R5: api_test JaxprTest.test_cond.
func TestPrintR5(t *testing.T) {
	g, h, i, jv := f32(), f32(), f32(), f32()
	br0 := &Jaxpr{Invars: outs(g, h, i), Outvars: in(jv), Eqns: []*Eqn{eq(outs(jv), Sub, nil, i, g)}}
	k, l, m, n := f32(), f32(), f32(), f32()
	br1 := &Jaxpr{Invars: outs(k, l, m), Outvars: in(n), Eqns: []*Eqn{eq(outs(n), Add, nil, l, k)}}
	a, b, c, d, e, f := f32(), boolv(), f32(), f32(), i32(), f32()
	j := &Jaxpr{Invars: outs(a), Outvars: in(f), Eqns: []*Eqn{
		eq(outs(b), Ge, nil, a, lit(Float32, 0)),
		eq(outs(c), Add, nil, a, lit(Float32, 1)),
		eq(outs(d), Add, nil, a, lit(Float32, 2)),
		eq(outs(e), ConvertElementType, cet(Int32), b),
		eq(outs(f), Cond, Params{"branches": []*ClosedJaxpr{closed(br0), closed(br1)}}, e, a, c, d),
	}}
	checkPrint(t, j, `
{ lambda ; a:f32[]. let
    b:bool[] = ge a 0.0:f32[]
    c:f32[] = add a 1.0:f32[]
    d:f32[] = add a 2.0:f32[]
    e:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    f:f32[] = cond[
      branches=(
        { lambda ; g:f32[] h:f32[] i:f32[]. let j:f32[] = sub i g in (j,) }
        { lambda ; k:f32[] l:f32[] m:f32[]. let n:f32[] = add l k in (n,) }
      )
    ] e a c d
  in (f,) }`)
}

// R6: make_jaxpr docstring, sin(cos(x)) and its gradient.
func TestPrintR6(t *testing.T) {
	a, b, c := f32(), f32(), f32()
	j := &Jaxpr{Invars: outs(a), Outvars: in(c), Eqns: []*Eqn{
		eq(outs(b), Cos, nil, a),
		eq(outs(c), Sin, nil, b),
	}}
	checkPrint(t, j, `{ lambda ; a:f32[]. let b:f32[] = cos a; c:f32[] = sin b in (c,) }`)

	a, b, c = f32(), f32(), f32()
	x, d, e, f, g := f32(), f32(), f32(), f32(), f32()
	grad := &Jaxpr{Invars: outs(a), Outvars: in(g), Eqns: []*Eqn{
		eq(outs(b), Cos, nil, a),
		eq(outs(c), Sin, nil, a),
		eq(outs(x), Sin, nil, b),
		eq(outs(d), Cos, nil, b),
		eq(outs(e), Mul, nil, lit(Float32, 1), d),
		eq(outs(f), Neg, nil, e),
		eq(outs(g), Mul, nil, f, c),
	}}
	checkPrint(t, grad, `
{ lambda ; a:f32[]. let
    b:f32[] = cos a
    c:f32[] = sin a
    _:f32[] = sin b
    d:f32[] = cos b
    e:f32[] = mul 1.0:f32[] d
    f:f32[] = neg e
    g:f32[] = mul f c
  in (g,) }`)
}

// R7: docs/aot.md, 2*x + y on ints.
func TestPrintR7(t *testing.T) {
	a, b, c, d := i32(), i32(), i32(), i32()
	j := &Jaxpr{Invars: outs(a, b), Outvars: in(d), Eqns: []*Eqn{
		eq(outs(c), Mul, nil, lit(Int32, 2), a),
		eq(outs(d), Add, nil, c, b),
	}}
	checkPrint(t, j, `
{ lambda ; a:i32[] b:i32[]. let
    c:i32[] = mul 2:i32[] a
    d:i32[] = add c b
  in (d,) }`)
}

// R8: pjit_test test_pretty_print: a jaxpr used twice is hoisted and the jit
// equation's inner jaxpr reuses the outer names.
func TestPrintR8(t *testing.T) {
	fa, fb := f32(1), f32(1)
	fj := closed(&Jaxpr{Invars: outs(fa), Outvars: in(fb), Eqns: []*Eqn{
		eq(outs(fb), IntegerPow, Params{"y": 2}, fa),
	}})
	gx, ge, gf, gd := f32(1), f32(1), f32(1), f32(1)
	gj := closed(&Jaxpr{Invars: outs(gx), Outvars: in(gd), Eqns: []*Eqn{
		eq(outs(ge), Jit, Params{"name": "<lambda>", "jaxpr": fj}, gx),
		eq(outs(gf), Jit, Params{"name": "<lambda>", "jaxpr": fj}, gx),
		eq(outs(gd), Add, nil, ge, gf),
	}})
	x, y := f32(1), f32(1)
	j := &Jaxpr{Invars: outs(x), Outvars: in(y), Eqns: []*Eqn{
		eq(outs(y), Jit, Params{"name": "<lambda>", "jaxpr": gj}, x),
	}}
	checkPrint(t, j, `
let lambda = { lambda ; a:f32[1]. let b:f32[1] = integer_pow[y=2] a in (b,) } in
{ lambda ; c:f32[1]. let
    d:f32[1] = jit[
      name=<lambda>
      jaxpr={ lambda ; c:f32[1]. let
          e:f32[1] = jit[name=<lambda> jaxpr=lambda] c
          f:f32[1] = jit[name=<lambda> jaxpr=lambda] c
          d:f32[1] = add e f
        in (d,) }
    ] c
  in (d,) }`)
}

// R9: pjit_test test_pretty_print_nested_shared_jaxprs.
func TestPrintR9(t *testing.T) {
	ix, iy := f32(1), f32(1)
	inner := closed(&Jaxpr{Invars: outs(ix), Outvars: in(iy), Eqns: []*Eqn{
		eq(outs(iy), Add, nil, ix, lit(Float32, 1)),
	}})
	ox, oy, oz, os := f32(1), f32(1), f32(1), f32(1)
	outer := closed(&Jaxpr{Invars: outs(ox), Outvars: in(os), Eqns: []*Eqn{
		eq(outs(oy), Jit, Params{"name": "inner_fn", "jaxpr": inner}, ox),
		eq(outs(oz), Jit, Params{"name": "inner_fn", "jaxpr": inner}, ox),
		eq(outs(os), Add, nil, oy, oz),
	}})
	x, a, b, c := f32(1), f32(1), f32(1), f32(1)
	j := &Jaxpr{Invars: outs(x), Outvars: in(c), Eqns: []*Eqn{
		eq(outs(a), Jit, Params{"name": "outer_fn", "jaxpr": outer}, x),
		eq(outs(b), Jit, Params{"name": "outer_fn", "jaxpr": outer}, x),
		eq(outs(c), Add, nil, a, b),
	}}
	checkPrint(t, j, `
let outer_fn = { lambda ; a:f32[1]. let
    b:f32[1] = jit[name=inner_fn jaxpr=inner_fn] a
    c:f32[1] = jit[name=inner_fn jaxpr=inner_fn] a
    d:f32[1] = add b c
  in (d,) } in
let inner_fn = { lambda ; e:f32[1]. let f:f32[1] = add e 1.0:f32[] in (f,) } in
{ lambda ; g:f32[1]. let
    h:f32[1] = jit[name=outer_fn jaxpr=outer_fn] g
    i:f32[1] = jit[name=outer_fn jaxpr=outer_fn] g
    j:f32[1] = add h i
  in (j,) }`)
}

// R11 (while_loop) in the ≥0.6.1 typed-literal form: the longer literal
// makes cond_jaxpr no longer fit on its line, so it breaks.
func TestPrintR11Typed(t *testing.T) {
	c, d, e, f := i32(), f32(2), i32(), f32(2)
	body := &Jaxpr{Invars: outs(c, d), Outvars: in(e, f), Eqns: []*Eqn{
		eq(outs(e), Add, nil, c, lit(Int32, 1)),
		eq(outs(f), Mul, nil, d, d),
	}}
	g, h, i := i32(), f32(2), boolv()
	cond := &Jaxpr{Invars: outs(g, h), Outvars: in(i), Eqns: []*Eqn{eq(outs(i), Lt, nil, g, lit(Int32, 1000))}}
	a, b, x0, x1 := f32(2), f32(2), i32(), f32(2)
	j := &Jaxpr{Invars: outs(a), Outvars: in(b), Eqns: []*Eqn{
		eq(outs(b), "copy", nil, a),
		eq(outs(x0, x1), While, Params{
			"body_jaxpr": closed(body), "body_nconsts": 0,
			"cond_jaxpr": closed(cond), "cond_nconsts": 0,
		}, lit(Int32, 0), a),
	}}
	checkPrint(t, j, `
{ lambda ; a:f32[2]. let
    b:f32[2] = copy a
    _:i32[] _:f32[2] = while[
      body_jaxpr={ lambda ; c:i32[] d:f32[2]. let
          e:i32[] = add c 1:i32[]
          f:f32[2] = mul d d
        in (e, f) }
      body_nconsts=0
      cond_jaxpr={ lambda ; g:i32[] h:f32[2]. let
          i:bool[] = lt g 1000:i32[]
        in (i,) }
      cond_nconsts=0
    ] 0:i32[] a
  in (b,) }`)
}

func TestPrintNoEquations(t *testing.T) {
	a := f32()
	checkPrint(t, &Jaxpr{Invars: outs(a), Outvars: in(a)}, `{ lambda ; a:f32[]. let  in (a,) }`)
	checkPrint(t, &Jaxpr{}, `{ lambda ; . let  in () }`)
}

func TestPrintConstvarsAndLiteralOutput(t *testing.T) {
	k, a, b := f32(3), f32(3), f32(3)
	j := &Jaxpr{Constvars: outs(k), Invars: outs(a), Outvars: in(b, lit(Int32, 3)), Eqns: []*Eqn{
		eq(outs(b), Add, nil, k, a),
	}}
	checkPrint(t, j, `{ lambda a:f32[3]; b:f32[3]. let c:f32[3] = add a b in (c, 3:i32[]) }`)
}

// An equation without operands keeps JAX's trailing space after "]".
func TestPrintNoInputs(t *testing.T) {
	a := i32(5)
	j := &Jaxpr{Outvars: in(a), Eqns: []*Eqn{
		eq(outs(a), Iota, Params{"dtype": Int32, "shape": []int{5}, "dimension": 0, "sharding": nil}),
	}}
	checkPrint(t, j, "{ lambda ; . let\n"+
		"    a:i32[5] = iota[dimension=0 dtype=int32 shape=(5,) sharding=None] \n"+
		"  in (a,) }")
}

// An equation without outputs prints only prim[params] operands; a jaxpr
// without outputs ends in "in ()".
func TestPrintNoOutputs(t *testing.T) {
	a := f32()
	j := &Jaxpr{Invars: outs(a), Eqns: []*Eqn{
		eq(nil, DebugPrint, Params{"fmt": "x={x}", "ordered": false}, a),
	}}
	checkPrint(t, j, `{ lambda ; a:f32[]. let debug_print[fmt=x={x} ordered=False] a in () }`)
}

// Rule a.2-3: each separator of a variable list is its own group, so the
// item that crosses column 80 stays on the line and the list continues four
// columns in.
func TestPrintLongVariableListWraps(t *testing.T) {
	var ins []*Var
	for range 12 {
		ins = append(ins, f32())
	}
	m := f32()
	j := &Jaxpr{Invars: ins, Outvars: in(m), Eqns: []*Eqn{eq(outs(m), Add, nil, ins[0], ins[11])}}
	checkPrint(t, j, `
{ lambda ; a:f32[] b:f32[] c:f32[] d:f32[] e:f32[] f:f32[] g:f32[] h:f32[] i:f32[]
    j:f32[] k:f32[] l:f32[]. let
    m:f32[] = add a l
  in (m,) }`)
}

// Names continue past z with ba, bb (there is no aa).
func TestPrintNameRollover(t *testing.T) {
	var ins []*Var
	for range 27 {
		ins = append(ins, f32())
	}
	out := f32()
	j := &Jaxpr{Invars: ins, Outvars: in(out), Eqns: []*Eqn{eq(outs(out), Add, nil, ins[0], ins[26])}}
	checkPrint(t, j, `
{ lambda ; a:f32[] b:f32[] c:f32[] d:f32[] e:f32[] f:f32[] g:f32[] h:f32[] i:f32[]
    j:f32[] k:f32[] l:f32[] m:f32[] n:f32[] o:f32[] p:f32[] q:f32[] r:f32[] s:f32[]
    t:f32[] u:f32[] v:f32[] w:f32[] x:f32[] y:f32[] z:f32[] ba:f32[]. let
    bb:f32[] = add a ba
  in (bb,) }`)
	for n, want := range map[int]string{0: "a", 25: "z", 26: "ba", 27: "bb", 51: "bz", 52: "ca", 676: "baa"} {
		if got := alphaName(n); got != want {
			t.Errorf("alphaName(%d) = %q, want %q", n, got, want)
		}
	}
}

// docs thinking_in_jax: a dot_general whose parameter group breaks.
func TestPrintDotGeneralBreaksParams(t *testing.T) {
	a, b, c, d, e := f32(3, 4), f32(4), f32(3, 4), f32(4), f32(3)
	j := &Jaxpr{Invars: outs(a, b), Outvars: in(e), Eqns: []*Eqn{
		eq(outs(c), Add, nil, a, lit(Float32, 1)),
		eq(outs(d), Add, nil, b, lit(Float32, 1)),
		eq(outs(e), DotGeneral, Params{
			"dimension_numbers":      DotDims{LhsContract: []int{1}, RhsContract: []int{0}},
			"preferred_element_type": Float32, "precision": nil, "out_sharding": nil,
		}, c, d),
	}}
	checkPrint(t, j, `
{ lambda ; a:f32[3,4] b:f32[4]. let
    c:f32[3,4] = add a 1.0:f32[]
    d:f32[4] = add b 1.0:f32[]
    e:f32[3] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] c d
  in (e,) }`)
}

// An operand used twice lends its name to the jit's inner jaxpr only once.
func TestPrintJitAliasRepeatedOperand(t *testing.T) {
	c, d, e := f32(), f32(), f32()
	inner := closed(&Jaxpr{Invars: outs(c, d), Outvars: in(e), Eqns: []*Eqn{eq(outs(e), Mul, nil, c, d)}})
	a, b := f32(), f32()
	j := &Jaxpr{Invars: outs(a), Outvars: in(b), Eqns: []*Eqn{
		eq(outs(b), Jit, Params{"name": "f", "jaxpr": inner}, a, a),
	}}
	checkPrint(t, j, `
{ lambda ; a:f32[]. let
    b:f32[] = jit[
      name=f
      jaxpr={ lambda ; a:f32[] c:f32[]. let b:f32[] = mul a c in (b,) }
    ] a a
  in (b,) }`)
}

// sinChain returns a jaxpr of n chained sin equations.
func sinChain(n int) *ClosedJaxpr {
	x := f32()
	j := &Jaxpr{Invars: outs(x)}
	cur := x
	for range n {
		next := f32()
		j.Eqns = append(j.Eqns, eq(outs(next), Sin, nil, cur))
		cur = next
	}
	j.Outvars = in(cur)
	return closed(j)
}

// Since 0.10.2 a sub-jaxpr with more than ten equations is printed out of
// line; one with ten stays inline.
func TestPrintHoistsLongSubJaxprs(t *testing.T) {
	scanOf := func(body *ClosedJaxpr) *Jaxpr {
		m, n := f32(), f32()
		return &Jaxpr{Invars: outs(m), Outvars: in(n), Eqns: []*Eqn{
			eq(outs(n), Scan, Params{"jaxpr": body, "length": 3, "num_carry": 1, "num_consts": 0,
				"reverse": false, "unroll": 1}, m),
		}}
	}
	checkPrint(t, scanOf(sinChain(11)), `
let jaxpr = { lambda ; a:f32[]. let
    b:f32[] = sin a
    c:f32[] = sin b
    d:f32[] = sin c
    e:f32[] = sin d
    f:f32[] = sin e
    g:f32[] = sin f
    h:f32[] = sin g
    i:f32[] = sin h
    j:f32[] = sin i
    k:f32[] = sin j
    l:f32[] = sin k
  in (l,) } in
{ lambda ; m:f32[]. let
    n:f32[] = scan[
      jaxpr=jaxpr
      length=3
      num_carry=1
      num_consts=0
      reverse=False
      unroll=1
    ] m
  in (n,) }`)
	if got := scanOf(sinChain(10)).String(); strings.HasPrefix(got, "let") {
		t.Errorf("a 10-equation body was hoisted:\n%s", got)
	}
}

// Hoisted names are unique (jaxpr, jaxpr1) and skipped by variable naming.
func TestPrintSharedNamesUniqueAndReserved(t *testing.T) {
	b1, b2 := sinChain(11), sinChain(12)
	x, y, z := f32(), f32(), f32()
	j := &Jaxpr{Invars: outs(x), Outvars: in(z), Eqns: []*Eqn{
		eq(outs(y), Cond, Params{"branches": []*ClosedJaxpr{b1, b2}}, lit(Int32, 0), x),
		eq(outs(z), Jit, Params{"name": "f", "jaxpr": sinChain(1)}, y),
	}}
	got := j.String()
	for _, want := range []string{
		"let jaxpr = { lambda ; a:f32[]. let\n",
		"let jaxpr1 = { lambda ; m:f32[]. let\n",
		"branches=(jaxpr jaxpr1)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

// eqnLine lays out one equation on its own with a fresh printer.
func eqnLine(e *Eqn) string {
	p := newPrinter(&Jaxpr{})
	return layout(p.eqn(e), printWidth)
}

func TestPrintPrimitiveParams(t *testing.T) {
	x23, x6 := f32(2, 3), f32(6)
	cases := []struct {
		e    *Eqn
		want string
	}{
		{eq(outs(x23), Reshape, Params{"new_sizes": []int{2, 3}, "dimensions": nil, "sharding": nil}, x6),
			"a:f32[2,3] = reshape[dimensions=None new_sizes=(2, 3) sharding=None] b"},
		{eq(outs(f32(1)), Slice, Params{"start_indices": []int{0}, "limit_indices": []int{1}, "strides": nil}, x6),
			"a:f32[1] = slice[limit_indices=(1,) start_indices=(0,) strides=None] b"},
		{eq(outs(f32()), Squeeze, Params{"dimensions": []int{0}}, f32(1)), "a:f32[] = squeeze[dimensions=(0,)] b"},
		{eq(outs(f32(9)), Pad, Params{"padding_config": [][3]int{{0, 3, 0}}}, x6, lit(Float32, 0)),
			"a:f32[9] = pad[padding_config=((0, 3, 0),)] b 0.0:f32[]"},
		{eq(outs(f32(3, 2)), Transpose, Params{"permutation": []int{1, 0}}, x23), "a:f32[3,2] = transpose[permutation=(1, 0)] b"},
		{eq(outs(x23), BroadcastInDim, Params{"shape": []int{2, 3}, "broadcast_dimensions": []int{1}, "sharding": nil}, f32(3)),
			"a:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(1,)] b"},
		{eq(outs(f32(12)), Concatenate, Params{"dimension": 0}, x6, x6), "a:f32[12] = concatenate[dimension=0] b b"},
		{eq(outs(f32(2)), DotGeneral, Params{"dimension_numbers": DotDims{LhsContract: []int{1}, RhsContract: []int{0},
			LhsBatch: []int{}, RhsBatch: []int{}}, "precision": nil, "preferred_element_type": nil, "out_sharding": nil}, x23, f32(3)),
			"a:f32[2] = dot_general[dimension_numbers=(([1], [0]), ([], []))] b c"},
		{eq(outs(f32()), ReduceMax, Params{"axes": []int{0, 1}, "out_sharding": nil}, x23),
			"a:f32[] = reduce_max[axes=(0, 1) out_sharding=None] b"},
		{eq(outs(f32()), IntegerPow, Params{"y": -2}, f32()), "a:f32[] = integer_pow[y=-2] b"},
		{eq(outs(f32()), SelectN, nil, boolv(), f32(), f32()), "a:f32[] = select_n b c d"},
		{eq(outs(i32()), Clamp, nil, lit(Int32, 0), i32(), lit(Int32, 2)), "a:i32[] = clamp 0:i32[] b 2:i32[]"},
		{eq(outs(f32()), Exp, Params{"accuracy": nil}, f32()), "a:f32[] = exp b"},
		{eq(outs(f32()), Mul, Params{"out_dtype": nil}, f32(), f32()), "a:f32[] = mul b c"},
		{eq(outs(f32()), ConvertElementType, Params{"new_dtype": Float32, "weak_type": true, "sharding": nil}, i32()),
			"a:f32[] = convert_element_type[new_dtype=float32 weak_type=True] b"},
	}
	for _, c := range cases {
		if got := eqnLine(c.e); got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.e.Prim, got, c.want)
		}
	}
}

func TestLiteralText(t *testing.T) {
	cases := []struct {
		l    Literal
		want string
	}{
		{lit(Float32, 3), "3.0:f32[]"},
		{lit(Float32, 0.01), "0.009999999776482582:f32[]"},
		{lit(Float32, 1.67), "1.6699999570846558:f32[]"},
		{lit(Float32, 0.5), "0.5:f32[]"},
		{lit(Float32, 1e-5), "9.999999747378752e-06:f32[]"},
		{lit(Float32, math.Inf(-1)), "-inf:f32[]"},
		{lit(Float32, math.NaN()), "nan:f32[]"},
		{lit(Float32, math.Copysign(0, -1)), "-0.0:f32[]"},
		{lit(Float64, 1e-5), "1e-05:f64[]"},
		{lit(Float64, 1e16), "1e+16:f64[]"},
		{lit(Float64, 1.5e16), "1.5e+16:f64[]"},
		{lit(Float64, 123456789012345), "123456789012345.0:f64[]"},
		{lit(Float64, 0.0001), "0.0001:f64[]"},
		{lit(Float64, 1e-300), "1e-300:f64[]"},
		{lit(Float64, math.Inf(1)), "inf:f64[]"},
		{lit(Float16, 0.1), "0.0999755859375:f16[]"},
		{lit(BFloat16, 3), "3:bf16[]"},
		{lit(BFloat16, 0.01), "0.0100098:bf16[]"},
		{lit(Int32, 1), "1:i32[]"},
		{lit(Int64, -7), "-7:i64[]"},
		{lit(Bool, 1), "True:bool[]"},
		{lit(Bool, 0), "False:bool[]"},
	}
	for _, c := range cases {
		if got := c.l.String(); got != c.want {
			t.Errorf("Literal{%v, %v}.String() = %q, want %q", c.l.Value, c.l.Aval.DType, got, c.want)
		}
	}
}

// The jaxpr's group is flat when it fits without the closing " }", so a flat
// line may reach 82 columns; one more column breaks it.
func TestPrintFlatBoundaryExcludesClosingBrace(t *testing.T) {
	build := func(n int) *Jaxpr {
		a, b, c := f32(1000), f32(n), f32(n)
		return &Jaxpr{Invars: outs(a), Outvars: in(c), Eqns: []*Eqn{
			eq(outs(b), Cos, nil, a),
			eq(outs(c), Log1p, nil, b),
		}}
	}
	flat := "{ lambda ; a:f32[1000]. let b:f32[10000] = cos a; c:f32[10000] = log1p b in (c,) }"
	if len(flat) != 82 {
		t.Fatalf("test setup: flat line is %d columns", len(flat))
	}
	checkPrint(t, build(10000), flat)
	checkPrint(t, build(100000), `
{ lambda ; a:f32[1000]. let
    b:f32[100000] = cos a
    c:f32[100000] = log1p b
  in (c,) }`)
}

// A hoisted jaxpr's name is never used as a variable name.
func TestPrintSkipsHoistedNames(t *testing.T) {
	x, y := f32(), f32()
	inner := closed(&Jaxpr{Invars: outs(x), Outvars: in(y), Eqns: []*Eqn{eq(outs(y), Sin, nil, x)}})
	p, q, r := f32(), f32(), f32()
	j := &Jaxpr{Invars: outs(p), Outvars: in(r), Eqns: []*Eqn{
		eq(outs(q), Jit, Params{"name": "b", "jaxpr": inner}, p),
		eq(outs(r), Jit, Params{"name": "b", "jaxpr": inner}, q),
	}}
	checkPrint(t, j, `
let b = { lambda ; a:f32[]. let c:f32[] = sin a in (c,) } in
{ lambda ; d:f32[]. let
    e:f32[] = jit[name=b jaxpr=b] d
    f:f32[] = jit[name=b jaxpr=b] e
  in (f,) }`)
}

func BenchmarkPrintChain1000(b *testing.B) {
	j := sinChain(1000).Jaxpr
	for b.Loop() {
		_ = j.String()
	}
}
