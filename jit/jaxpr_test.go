package jit_test

import (
	"testing"

	"github.com/jitlint/jitlint/jit"
)

// jaxprCase is a Go program and the text JAX 0.11 prints for its Python twin
// (jax-reference.md; Python shown in comments).
type jaxprCase struct {
	name string
	fn   any
	args []any
	opts []jit.Option
	want string
}

var jaxprCases = []jaxprCase{
	{
		// tanh(x)*sin(x) + log1p(x*x) on f32[4] (codelab step 9)
		name: "codelab_step9", fn: func(x jit.Array) jit.Array {
			return x.Tanh().Mul(x.Sin()).Add(x.Mul(x).Log1p())
		}, args: []any{jit.Spec(jit.Float32, 4)},
		want: `{ lambda ; a:f32[4]. let
    b:f32[4] = tanh a
    c:f32[4] = sin a
    d:f32[4] = mul b c
    e:f32[4] = mul a a
    f:f32[4] = log1p e
    g:f32[4] = add d f
  in (g,) }`,
	},
	{
		// R1: first + jnp.sin(second) * 3.; jnp.sum(temp)
		name: "R1_func1", fn: func(first, second jit.Array) jit.Array {
			return first.Add(second.Sin().Mul(3.)).Sum()
		}, args: []any{jit.Zeros(jit.Float32, 8), jit.Ones(jit.Float32, 8)},
		want: `{ lambda ; a:f32[8] b:f32[8]. let
    c:f32[8] = sin b
    d:f32[8] = mul c 3.0:f32[]
    e:f32[8] = add a d
    f:f32[] = reduce_sum[axes=(0,) out_sharding=None] e
  in (f,) }`,
	},
	{
		// R2: lax.cond(arg >= 0., lambda x: x + 3., lambda x: x - 3., arg) on 5.
		name: "R2_cond", fn: func(arg jit.Array) jit.Array {
			return jit.Cond(arg.Ge(0.),
				func(x jit.Array) jit.Array { return x.Add(3.) },
				func(x jit.Array) jit.Array { return x.Sub(3.) }, arg)
		}, args: []any{5.0},
		want: `{ lambda ; a:f32[]. let
    b:bool[] = ge a 0.0:f32[]
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:f32[] = cond[
      branches=(
        { lambda ; e:f32[]. let f:f32[] = sub e 3.0:f32[] in (f,) }
        { lambda ; g:f32[]. let h:f32[] = add g 3.0:f32[] in (h,) }
      )
    ] c a
  in (d,) }`,
	},
	{
		// R3: fori_loop(0, n, lambda i, c: c + ones*3. + arg, arg + ones), traced n
		name: "R3_fori_traced", fn: func(arg, n jit.Array) jit.Array {
			ones := jit.Ones(jit.Float32, arg.Shape()...)
			return jit.ForiLoop(0, n, func(i, carry jit.Array) jit.Array {
				return carry.Add(ones.Mul(3.)).Add(arg)
			}, arg.Add(ones))
		}, args: []any{jit.Ones(jit.Float32, 16), 5},
		want: `{ lambda ; a:f32[16] b:i32[]. let
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
  in (e,) }`,
	},
	{
		// R4: lax.scan(body, 0., (arr, ones)) with body (carry + ae1*ae2 + extra, carry)
		name: "R4_scan", fn: func(arr, extra jit.Array) (any, jit.Array) {
			ones := jit.Ones(jit.Float32, arr.Shape()...)
			return jit.Scan(func(carry any, ae [2]jit.Array) (any, jit.Array) {
				c := carry.(jit.Array)
				return c.Add(ae[0].Mul(ae[1])).Add(extra), c
			}, any(0.0), [2]jit.Array{arr, ones})
		}, args: []any{jit.Ones(jit.Float32, 16), 5.0},
		want: `{ lambda ; a:f32[16] b:f32[]. let
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
  in (d, e) }`,
	},
	{
		// R5: lax.cond(x >= 0., lambda xt, _: xt + x, lambda _, xf: xf - x, x + 1., x + 2.)
		name: "R5_cond_two_operands", fn: func(x jit.Array) jit.Array {
			return jit.Cond(x.Ge(0.),
				func(o [2]jit.Array) jit.Array { return o[0].Add(x) },
				func(o [2]jit.Array) jit.Array { return o[1].Sub(x) },
				[2]jit.Array{x.Add(1.), x.Add(2.)})
		}, args: []any{jit.Scalar(float32(3))},
		want: `{ lambda ; a:f32[]. let
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
  in (f,) }`,
	},
	{
		// R6: sin(cos(x)) on 3.0 — fits on one line
		name: "R6_one_line", fn: func(x jit.Array) jit.Array { return x.Cos().Sin() }, args: []any{3.0},
		want: `{ lambda ; a:f32[]. let b:f32[] = cos a; c:f32[] = sin b in (c,) }`,
	},
	{
		// R7: 2 * x + y on Python ints 3, 4
		name: "R7_ints", fn: func(x, y jit.Array) jit.Array { return jit.Scalar(int32(2)).Mul(x).Add(y) },
		args: []any{jit.Scalar(int32(3)), jit.Scalar(int32(4))},
		want: `{ lambda ; a:i32[] b:i32[]. let
    c:i32[] = mul 2:i32[] a
    d:i32[] = add c b
  in (d,) }`,
	},
}

func TestJaxprMatchesJAX(t *testing.T) {
	for _, c := range jaxprCases {
		t.Run(c.name, func(t *testing.T) {
			cj, err := jit.MakeJaxpr(c.fn, c.opts...)(c.args...)
			if err != nil {
				t.Fatal(err)
			}
			if got := cj.String(); got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}
