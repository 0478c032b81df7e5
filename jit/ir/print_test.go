package ir

import (
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
func in(as ...Atom) []Atom           { return as }
func eq(out []*Var, prim string, ps Params, ins ...Atom) *Eqn {
	return &Eqn{Prim: prim, Params: ps, In: ins, Out: out}
}
func outs(vs ...*Var) []*Var { return vs }
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
