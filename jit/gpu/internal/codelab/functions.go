package codelab

import (
	"github.com/jitlint/jitlint/jit/ir"
)

func f32(shape ...int) ir.Aval { return ir.Aval{Shape: shape, DType: ir.Float32} }

// SquarePlusOne is step 3's f(x) = x**2 + 1.
func SquarePlusOne(n int) *ir.ClosedJaxpr {
	b := ir.NewBuilder()
	x := b.In(ir.Float32, n)
	y := b.Op(ir.IntegerPow, ir.Params{"y": 2}, f32(n), x)
	return b.Done("f", b.Same(ir.Add, y, F32(1)))
}

// Heavy is step 4's heavy(x): reps times y = sin(y)*cos(y) + tanh(y).
func Heavy(n, reps int) *ir.ClosedJaxpr {
	b := ir.NewBuilder()
	y := b.In(ir.Float32, n)
	for range reps {
		s, c := b.Same(ir.Sin, y), b.Same(ir.Cos, y)
		y = b.Same(ir.Add, b.Same(ir.Mul, s, c), b.Same(ir.Tanh, y))
	}
	return b.Done("heavy", y)
}

// SumSquares is step 5's f(x) = sum(x**2).
func SumSquares(n int) *ir.ClosedJaxpr {
	b := ir.NewBuilder()
	x := b.In(ir.Float32, n)
	y := b.Op(ir.IntegerPow, ir.Params{"y": 2}, f32(n), x)
	return b.Done("f", b.Op(ir.ReduceSum, ir.Params{"axes": []int{0}, "out_sharding": nil}, f32(), y))
}

// ReluWhere is step 6's jnp.where(x > 0, x, 0.0), with where as a nested
// jit as JAX stages it.
func ReluWhere(n int) *ir.ClosedJaxpr {
	inner := ir.NewBuilder()
	c := inner.In(ir.Bool, n)
	x := inner.In(ir.Float32, n)
	z := inner.In(ir.Float32)
	zb := inner.Op(ir.BroadcastInDim, ir.Params{"shape": []int{n}, "broadcast_dimensions": []int{}, "sharding": nil}, f32(n), z)
	where := inner.Done("_where", inner.Op(ir.SelectN, nil, f32(n), c, zb, x))
	b := ir.NewBuilder()
	xo := b.In(ir.Float32, n)
	gt := b.Compare(ir.Gt, xo, F32(0))
	out := b.Multi(ir.Jit, ir.Params{"name": "_where", "jaxpr": where}, []ir.Aval{f32(n)}, gt, xo, F32(0))
	return b.Done("relu", out[0])
}

// CondSoftplus is step 6's lax.cond(sharp, relu, softplus, x).
func CondSoftplus(n int) *ir.ClosedJaxpr {
	soft := ir.NewBuilder()
	x := soft.In(ir.Float32, n)
	softplus := soft.Done("softplus", soft.Same(ir.Log1p, soft.Same(ir.Exp, x)))
	relu := ir.NewBuilder()
	x = relu.In(ir.Float32, n)
	reluJ := relu.Done("relu", relu.Same(ir.Max, x, F32(0)))
	b := ir.NewBuilder()
	sharp := b.In(ir.Bool)
	xo := b.In(ir.Float32, n)
	idx := b.Op(ir.ConvertElementType, ir.Params{"new_dtype": ir.Int32, "weak_type": false, "sharding": nil}, ir.Aval{DType: ir.Int32}, sharp)
	out := b.Multi(ir.Cond, ir.Params{"branches": []*ir.ClosedJaxpr{softplus, reluJ}}, []ir.Aval{f32(n)}, idx, xo)
	return b.Done("f", out[0])
}

// loopBody appends y = sin(y) + 0.01*y.
func loopBody(b *ir.Builder, y *ir.Var) *ir.Var {
	return b.Same(ir.Add, b.Same(ir.Sin, y), b.Op(ir.Mul, nil, y.Aval, F32(0.01), y))
}

// Unrolled is step 7's python_for_loop: steps copies of the loop body.
func Unrolled(n, steps int) *ir.ClosedJaxpr {
	b := ir.NewBuilder()
	y := b.In(ir.Float32, n)
	for range steps {
		y = loopBody(b, y)
	}
	return b.Done("python_for_loop", y)
}

// ScanLoop is step 7's scan_loop: lax.scan(body, x, xs=None, length=steps).
func ScanLoop(n, steps int) *ir.ClosedJaxpr {
	body := ir.NewBuilder()
	y := body.In(ir.Float32, n)
	bj := body.Done("body", loopBody(body, y))
	b := ir.NewBuilder()
	x := b.In(ir.Float32, n)
	out := b.Multi(ir.Scan, ir.Params{"jaxpr": bj, "length": steps, "num_consts": 0, "num_carry": 1,
		"reverse": false, "unroll": 1}, []ir.Aval{f32(n)}, x)
	return b.Done("scan_loop", out[0])
}

// MaskedMean is step 8a's sum(x*mask)/max(sum(mask), 1).
func MaskedMean(n int) *ir.ClosedJaxpr {
	b := ir.NewBuilder()
	x, m := b.In(ir.Float32, n), b.In(ir.Float32, n)
	sum := func(v *ir.Var) *ir.Var {
		return b.Op(ir.ReduceSum, ir.Params{"axes": []int{0}, "out_sharding": nil}, f32(), v)
	}
	s := sum(b.Same(ir.Mul, x, m))
	d := b.Same(ir.Max, sum(m), F32(1))
	return b.Done("masked_mean", b.Same(ir.Div, s, d))
}

// Power is step 8b's power(n, x) with static n: x squared n times.
func Power(n, size int) *ir.ClosedJaxpr {
	b := ir.NewBuilder()
	x := b.In(ir.Float32, size)
	for range n {
		x = b.Same(ir.Mul, x, x)
	}
	return b.Done("power", x)
}

// Step9 is make_jaxpr's example tanh(x)*sin(x) + log1p(x*x).
func Step9(n int) *ir.ClosedJaxpr {
	b := ir.NewBuilder()
	x := b.In(ir.Float32, n)
	t := b.Same(ir.Mul, b.Same(ir.Tanh, x), b.Same(ir.Sin, x))
	return b.Done("f", b.Same(ir.Add, t, b.Same(ir.Log1p, b.Same(ir.Mul, x, x))))
}
