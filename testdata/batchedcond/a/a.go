package a

import "github.com/jitlint/jitlint/jit"

// SoftOrSharp is the codelab's branch on a traced bool.
func SoftOrSharp(sharp jit.Array, x jit.Array) jit.Array {
	return jit.Cond(sharp, jit.Relu, jit.Softplus, x) // want `jit.Cond's predicate depends on sharp, which jit.Vmap maps: under Vmap it becomes a select_n and every branch runs for every element, so it costs the sum of the branches, not one of them; if the branches are cheap, jit.Where says so honestly`
}

var batched = jit.Vmap(SoftOrSharp)

// Pick switches on a value computed from the mapped argument.
func Pick(x jit.Array) jit.Array {
	k := x.Sum().Astype(jit.Int32)
	return jit.Switch(k, []func(jit.Array) jit.Array{jit.Relu, jit.Softplus}, x) // want `jit.Switch's index depends on x, which jit.Vmap maps`
}

var batchedPick = jit.Vmap(Pick)

// Converge loops on a carry made from the mapped argument.
var converge = jit.Vmap(func(x, tol jit.Array) jit.Array {
	return jit.WhileLoop(func(c jit.Array) jit.Array { return c.Abs().Sum().Gt(tol) }, // want `jit.WhileLoop's carry depends on x, which jit.Vmap maps: with a batched condition the loop runs until every element is done \(as long as its slowest element\)`
		func(c jit.Array) jit.Array { return c.Mul(0.5) }, x)
}, jit.InAxes(0, jit.NotMapped))

// ---- not reported ----

// Mode branches on an argument that is not mapped: a real cond.
func Mode(sharp jit.Array, x jit.Array) jit.Array {
	return jit.Cond(sharp, jit.Relu, jit.Softplus, x)
}

var unbatchedPred = jit.Vmap(Mode, jit.InAxes(jit.NotMapped, 0))

// Elementwise uses Where, which is what runs anyway.
func Elementwise(x jit.Array) jit.Array {
	return jit.Where(x.Gt(0), x, x.Mul(0.01))
}

var leaky = jit.Vmap(Elementwise)

// Counted loops a fixed number of times on a counter that is not mapped.
func Counted(x jit.Array) jit.Array {
	n := jit.Arange(1, jit.Int32).Sum()
	return jit.WhileLoop(func(i jit.Array) jit.Array { return i.Lt(10) }, func(i jit.Array) jit.Array { return i.Add(1) }, n).Astype(jit.Float32).Add(x)
}

var counted = jit.Vmap(Counted)

// Jitted only: no batch.
func Jitted(sharp jit.Array, x jit.Array) jit.Array {
	return jit.Cond(sharp, jit.Relu, jit.Softplus, x)
}

var jitted = jit.Jit(Jitted)

// ---- through calls, inside traces, composed ----

// gate branches on the sign of p: batched when p is.
func gate(p, x jit.Array) jit.Array {
	return jit.Cond(p.Gt(0), jit.Relu, jit.Softplus, x) // want `jit.Cond's predicate depends on score, which jit.Vmap maps`
}

// Scored branches through a helper on a value computed from a mapped
// argument; x is not mapped.
func Scored(score, x jit.Array) jit.Array { return gate(score.Sum(), x) }

var scored = jit.Vmap(Scored, jit.InAxes(0, jit.NotMapped))

// ByLength branches on the length of its argument, the same for every
// element of the batch: a real cond.
func ByLength(x jit.Array) jit.Array {
	long := jit.Scalar(float32(x.Shape()[0])).Gt(4)
	return jit.Cond(long, jit.Relu, jit.Softplus, x)
}

var byLength = jit.Vmap(ByLength)

// Rows maps a branchy literal inside a jitted function.
func Rows(xs jit.Array) jit.Array {
	perRow := jit.Vmap(func(row jit.Array) jit.Array {
		return jit.Cond(row.Sum().Gt(0), jit.Relu, jit.Softplus, row) // want `jit.Cond's predicate depends on row, which jit.Vmap maps`
	})
	return perRow(xs)
}

var rows = jit.Jit(Rows)

// StepLoss is differentiated, then mapped: the gradient of a branch on
// the mapped argument branches on it too.
func StepLoss(x jit.Array) jit.Array {
	return jit.Cond(x.Sum().Gt(1), jit.Relu, jit.Softplus, x).Sum() // want `jit.Cond's predicate depends on x, which jit.Vmap maps`
}

var perExampleGrad = jit.Vmap(jit.Grad[func(jit.Array) jit.Array](StepLoss))
