package codelab

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
	"github.com/jitlint/jitlint/jit/ir"
)

// trace stages fn for specs with jit's tracer and names the jaxpr.
func trace(name string, fn any, specs ...any) *ir.ClosedJaxpr {
	cj, err := jit.MakeJaxpr(fn)(specs...)
	if err != nil {
		panic(fmt.Sprintf("codelab: tracing %s: %v", name, err))
	}
	c := cj.IR()
	c.Name = name
	return c
}

func f32(shape ...int) jit.ShapeDtype { return jit.Spec(jit.Float32, shape...) }

// SquarePlusOne is step 3's f(x) = x**2 + 1.
func SquarePlusOne(n int) *ir.ClosedJaxpr {
	return trace("f", func(x jit.Array) jit.Array { return x.Pow(2).Add(1) }, f32(n))
}

// Heavy is step 4's heavy(x): reps times y = sin(y)*cos(y) + tanh(y).
func Heavy(n, reps int) *ir.ClosedJaxpr {
	return trace("heavy", func(x jit.Array) jit.Array {
		y := x
		for range reps {
			y = y.Sin().Mul(y.Cos()).Add(y.Tanh())
		}
		return y
	}, f32(n))
}

// SumSquares is step 5's f(x) = sum(x**2).
func SumSquares(n int) *ir.ClosedJaxpr {
	return trace("f", func(x jit.Array) jit.Array { return x.Pow(2).Sum() }, f32(n))
}

// ReluWhere is step 6's jnp.where(x > 0, x, 0.0).
func ReluWhere(n int) *ir.ClosedJaxpr {
	return trace("relu", func(x jit.Array) jit.Array { return jit.Where(x.Gt(0), x, 0.0) }, f32(n))
}

// CondSoftplus is step 6's lax.cond(sharp, relu, softplus, x).
func CondSoftplus(n int) *ir.ClosedJaxpr {
	return trace("f", func(sharp, x jit.Array) jit.Array { return jit.Cond(sharp, jit.Relu, jit.Softplus, x) },
		jit.Spec(jit.Bool), f32(n))
}

// loopBody is step 7's y = sin(y) + 0.01*y.
func loopBody(y jit.Array) jit.Array { return y.Sin().Add(y.Mul(0.01)) }

// Unrolled is step 7's python_for_loop: steps copies of the loop body.
func Unrolled(n, steps int) *ir.ClosedJaxpr {
	return trace("python_for_loop", func(x jit.Array) jit.Array {
		for range steps {
			x = loopBody(x)
		}
		return x
	}, f32(n))
}

// ScanLoop is step 7's scan_loop: lax.scan(body, x, xs=None, length=steps).
func ScanLoop(n, steps int) *ir.ClosedJaxpr {
	return trace("scan_loop", func(x jit.Array) jit.Array {
		y, _ := jit.ScanN(func(y jit.Array) (jit.Array, struct{}) { return loopBody(y), struct{}{} }, x, steps)
		return y
	}, f32(n))
}

// MaskedMean is step 8a's sum(x*mask)/max(sum(mask), 1).
func MaskedMean(n int) *ir.ClosedJaxpr {
	return trace("masked_mean", func(x, m jit.Array) jit.Array { return x.Mul(m).Sum().Div(m.Sum().Max(1)) }, f32(n), f32(n))
}

// Power is step 8b's power(n, x) with static n: x squared n times.
func Power(n, size int) *ir.ClosedJaxpr {
	return trace("power", func(x jit.Array) jit.Array {
		for range n {
			x = x.Mul(x)
		}
		return x
	}, f32(size))
}

// Step9 is make_jaxpr's example tanh(x)*sin(x) + log1p(x*x).
func Step9(n int) *ir.ClosedJaxpr {
	return trace("step9", func(x jit.Array) jit.Array { return x.Tanh().Mul(x.Sin()).Add(x.Mul(x).Log1p()) }, f32(n))
}

// WhileCount is fori_loop with a traced upper bound: y = 1.5*y + 1, limit
// times (a while loop).
func WhileCount(n int) *ir.ClosedJaxpr {
	return trace("while_loop", func(limit, x jit.Array) jit.Array {
		return jit.ForiLoop(0, limit, func(_ jit.Array, y jit.Array) jit.Array { return y.Mul(1.5).Add(1) }, x)
	}, jit.Spec(jit.Int32), f32(n))
}

// ScanCumsum is a scan with xs and stacked ys: running sums of the rows of
// x[steps, n] (and twice them), reversed when reverse is set.
func ScanCumsum(steps, n int, reverse bool) *ir.ClosedJaxpr {
	var opts []jit.ScanOption
	if reverse {
		opts = append(opts, jit.Reverse())
	}
	return trace("cumsum", func(x jit.Array) (jit.Array, jit.Array) {
		return jit.Scan(func(c, row jit.Array) (jit.Array, jit.Array) {
			s := c.Add(row)
			return s, s.Mul(2)
		}, jit.Zeros(jit.Float32, n), x, opts...)
	}, f32(steps, n))
}

// Matmul is x @ w for x[m,k], w[k,n]; with transposed set, x is given as
// [k,m] and transposed first.
func Matmul(m, k, n int, transposed bool) *ir.ClosedJaxpr {
	if transposed {
		return trace("matmul", func(x, w jit.Array) jit.Array { return x.Transpose(1, 0).MatMul(w) }, f32(k, m), f32(k, n))
	}
	return trace("matmul", func(x, w jit.Array) jit.Array { return x.MatMul(w) }, f32(m, k), f32(k, n))
}

// Shapes exercises the index kernels: x[2,3] -> transpose, broadcast to
// [4,3,2] against a constant, concatenate with itself along 0, reshape,
// pad, slice, and a row max.
func Shapes() *ir.ClosedJaxpr {
	return trace("shapes", func(x jit.Array) (jit.Array, jit.Array) {
		t := x.Transpose(1, 0)
		s := t.Add(jit.Arange(24, jit.Float32).Reshape(4, 3, 2))
		cat := jit.Concatenate(0, s, s.Mul(-1))
		p, _, err := jit.PadTo(cat.Reshape(48), 60)
		if err != nil {
			panic(err)
		}
		sl := p.Slice([]int{6}, []int{54}).Reshape(4, 12)
		return p, sl.MaxReduce(1)
	}, f32(2, 3))
}
