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
	for _, c := range append(jaxprCases, moreCases...) {
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

// pjitSquare is jitted once and called twice inside g: JAX shares its jaxpr
// and hoists it (R8).
var square = jit.Jit(func(x jit.Array) jit.Array { return x.Pow(2) }, jit.Name("<lambda>"))

var innerFn = jit.Jit(func(x jit.Array) jit.Array { return x.Add(1.0) }, jit.Name("inner_fn"))

var outerFn = jit.Jit(func(x jit.Array) jit.Array {
	return innerFn.Call(x).Add(innerFn.Call(x))
}, jit.Name("outer_fn"))

var moreCases = []jaxprCase{
	{
		// R8: g = jit(lambda x: f(x) + f(x)) with f = jit(lambda x: x**2), on f32[1]
		name: "R8_nested_jit_shared",
		fn: func(x jit.Array) jit.Array {
			g := jit.Jit(func(x jit.Array) jit.Array { return square.Call(x).Add(square.Call(x)) }, jit.Name("<lambda>"))
			return g.Call(x)
		}, args: []any{jit.FromSlice([]float32{4.2})},
		want: `let lambda = { lambda ; a:f32[1]. let b:f32[1] = integer_pow[y=2] a in (b,) } in
{ lambda ; c:f32[1]. let
    d:f32[1] = jit[
      name=<lambda>
      jaxpr={ lambda ; c:f32[1]. let
          e:f32[1] = jit[name=<lambda> jaxpr=lambda] c
          f:f32[1] = jit[name=<lambda> jaxpr=lambda] c
          d:f32[1] = add e f
        in (d,) }
    ] c
  in (d,) }`,
	},
	{
		// R9: lambda x: outer_fn(x) + outer_fn(x), nested shared jaxprs
		name: "R9_nested_shared", fn: func(x jit.Array) jit.Array {
			return outerFn.Call(x).Add(outerFn.Call(x))
		}, args: []any{jit.FromSlice([]float32{1})},
		want: `let outer_fn = { lambda ; a:f32[1]. let
    b:f32[1] = jit[name=inner_fn jaxpr=inner_fn] a
    c:f32[1] = jit[name=inner_fn jaxpr=inner_fn] a
    d:f32[1] = add b c
  in (d,) } in
let inner_fn = { lambda ; e:f32[1]. let f:f32[1] = add e 1.0:f32[] in (f,) } in
{ lambda ; g:f32[1]. let
    h:f32[1] = jit[name=outer_fn jaxpr=outer_fn] g
    i:f32[1] = jit[name=outer_fn jaxpr=outer_fn] g
    j:f32[1] = add h i
  in (j,) }`,
	},
	{
		// def outer(x): y = x * 2; f = jax.jit(lambda z: z + y) (named f); return f(x) + f(x)
		// The captured y is traced once, shared, and passed as the first operand.
		name: "nested_jit_capturing_outer_tracer", fn: func(x jit.Array) jit.Array {
			y := x.Mul(2)
			f := jit.Jit(func(z jit.Array) jit.Array { return z.Add(y) }, jit.Name("f"))
			return f.Call(x).Add(f.Call(x))
		}, args: []any{jit.FromSlice([]float32{1, 2})},
		want: `let f = { lambda ; a:f32[2] b:f32[2]. let c:f32[2] = add b a in (c,) } in
{ lambda ; d:f32[2]. let
    e:f32[2] = mul d 2.0:f32[]
    g:f32[2] = jit[name=f jaxpr=f] e d
    h:f32[2] = jit[name=f jaxpr=f] e d
    i:f32[2] = add g h
  in (i,) }`,
	},
	{
		// R11 (typed-literal form): while_loop(lambda c: c[0] < 1000, lambda c: (c[0]+1, c[1]*c[1]), (0, x)); returns a copy of x
		name: "R11_while_unused_outputs", fn: func(x jit.Array) jit.Array {
			type carry struct {
				I any
				X jit.Array
			}
			jit.WhileLoop(func(c carry) jit.Array { return c.I.(jit.Array).Lt(1000) },
				func(c carry) carry { return carry{c.I.(jit.Array).Add(1), c.X.Mul(c.X)} },
				carry{0, x})
			return x.Neg()
		}, args: []any{jit.FromSlice([]float32{1.1, -1.1})},
		want: `{ lambda ; a:f32[2]. let
    _:i32[] _:f32[2] = while[
      body_jaxpr={ lambda ; b:i32[] c:f32[2]. let
          d:i32[] = add b 1:i32[]
          e:f32[2] = mul c c
        in (d, e) }
      body_nconsts=0
      cond_jaxpr={ lambda ; f:i32[] g:f32[2]. let
          h:bool[] = lt f 1000:i32[]
        in (h,) }
      cond_nconsts=0
    ] 0:i32[] a
    i:f32[2] = neg a
  in (i,) }`,
	},
	{
		// switch(i, [x-3, x+3, x*3], x): the index is clamped into range
		name: "switch_clamp", fn: func(i, x jit.Array) jit.Array {
			return jit.Switch(i, []func(jit.Array) jit.Array{
				func(x jit.Array) jit.Array { return x.Sub(3.) },
				func(x jit.Array) jit.Array { return x.Add(3.) },
				func(x jit.Array) jit.Array { return x.Mul(3.) },
			}, x)
		}, args: []any{jit.Scalar(int32(1)), jit.Spec(jit.Float32, 3)},
		want: `{ lambda ; a:i32[] b:f32[3]. let
    c:i32[] = clamp 0:i32[] a 2:i32[]
    d:f32[3] = cond[
      branches=(
        { lambda ; e:f32[3]. let f:f32[3] = sub e 3.0:f32[] in (f,) }
        { lambda ; g:f32[3]. let h:f32[3] = add g 3.0:f32[] in (h,) }
        { lambda ; i:f32[3]. let j:f32[3] = mul i 3.0:f32[] in (j,) }
      )
    ] c b
  in (d,) }`,
	},
	{
		// fori_loop(0, 10, lambda i, x: x * 2., x) with static bounds → scan
		name: "fori_static_scan", fn: func(x jit.Array) jit.Array {
			return jit.ForiLoop(0, 10, func(i, c jit.Array) jit.Array { return c.Mul(2.) }, x)
		}, args: []any{jit.Spec(jit.Float32, 3)},
		want: `{ lambda ; a:f32[3]. let
    _:i32[] b:f32[3] = scan[
      jaxpr={ lambda ; c:i32[] d:f32[3]. let
          e:i32[] = add c 1:i32[]
          f:f32[3] = mul d 2.0:f32[]
        in (e, f) }
      length=10
      num_carry=2
      num_consts=0
      reverse=False
      unroll=1
    ] 0:i32[] a
  in (b,) }`,
	},
	{
		// jnp.where(x > 0, x, 0.) — one select_n (deliberate difference from JAX's jit[name=_where])
		name: "where_broadcast_literal", fn: func(x jit.Array) jit.Array { return jit.Where(x.Gt(0.), x, 0.0) },
		args: []any{jit.Spec(jit.Float32, 5)},
		want: `{ lambda ; a:f32[5]. let
    b:bool[5] = gt a 0.0:f32[]
    c:f32[5] = broadcast_in_dim 0.0:f32[]
    d:f32[5] = select_n b c a
  in (d,) }`,
	},
	{
		// x[None,:] + y[:,None]-style broadcasting: f32[3] + f32[2,1]. jnp's
		// promote_shapes only pads the rank (lax.broadcast_to_rank: a
		// broadcast_in_dim to f32[1,3]); the add broadcasts the size-1
		// dimensions itself (lax's broadcasting_shape_rule).
		name: "broadcasting", fn: func(x, y jit.Array) jit.Array { return x.Add(y) },
		args: []any{jit.Spec(jit.Float32, 3), jit.Spec(jit.Float32, 2, 1)},
		want: `{ lambda ; a:f32[3] b:f32[2,1]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = add c b
  in (d,) }`,
	},
	{
		// jnp: f32[1] + f32[2] has equal ranks, so no broadcast at all:
		// one add with an f32[1] operand.
		name: "size_one_broadcast", fn: func(x, y jit.Array) jit.Array { return x.Add(y) },
		args: []any{jit.Spec(jit.Float32, 1), jit.Spec(jit.Float32, 2)},
		want: `{ lambda ; a:f32[1] b:f32[2]. let c:f32[2] = add a b in (c,) }`,
	},
	{
		// a captured non-scalar constant becomes a constvar before ';'
		name: "captured_constant", fn: func(x jit.Array) jit.Array { return x.Mul(weights) },
		args: []any{jit.Spec(jit.Float32, 3)},
		want: `{ lambda a:f32[3]; b:f32[3]. let c:f32[3] = mul b a in (c,) }`,
	},
	{
		// integer_pow, mean and max reductions
		name: "reductions", fn: func(x jit.Array) (jit.Array, jit.Array) {
			return x.Pow(2).Mean(), x.MaxReduce(1)
		}, args: []any{jit.Spec(jit.Float32, 2, 4)},
		want: `{ lambda ; a:f32[2,4]. let
    b:f32[2,4] = integer_pow[y=2] a
    c:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] b
    d:f32[] = div c 8.0:f32[]
    e:f32[2] = reduce_max[axes=(1,) out_sharding=None] a
  in (d, e) }`,
	},
}

var weights = jit.FromSlice([]float32{1, 2, 3})
