package a

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Loop converts traced values in a loop condition, an index and a && chain.
func Loop(x jit.Array, xs []float64) jit.Array {
	for x.Sum().Gt(0).Bool() { // want `x.Sum\(\).Gt\(0\).Bool\(\) converts a traced value to a Go bool; tracing will fail with TracerBoolConversionError`
		x = x.Sub(1)
	}
	_ = xs[x.Int()]                        // want `x.Int\(\) converts a traced value to a Go int; tracing will fail with ConcretizationTypeError`
	if x.Max(0).Sum().Item() > 3 && true { // want `converts a traced value to a Go float64`
		x = x.Neg()
	}
	vals := x.Float32s() // want `to a Go \[\]float32`
	_ = vals
	return x
}

var loop = jit.Jit(Loop)

// helper is traced because traced code calls it with a traced argument.
func helper(y jit.Array) jit.Array {
	if y.Lt(0).Bool() { // want `y.Lt\(0\).Bool\(\) converts a traced value`
		return y.Neg()
	}
	return y
}

func usesHelper(x jit.Array) jit.Array { return helper(x.Add(1)) }

var usesHelperJit = jit.Jit(usesHelper)

// Marked is traced by its directive.
//
//jit:traced
func Marked(x jit.Array) float64 {
	return x.Item() // want `x.Item\(\) converts`
}

// InCond has a conversion inside a branch of jit.Cond.
func InCond(x jit.Array) jit.Array {
	return jit.Cond(x.Sum().Gt(0), func(v jit.Array) jit.Array {
		if v.Gt(1).Bool() { // want `v.Gt\(1\).Bool\(\) converts`
			return v
		}
		return v.Neg()
	}, jit.Relu, x)
}

var inCond = jit.Jit(InCond)

// Pytree is a pytree argument with a static field.
type Pytree struct {
	W    jit.Array
	Mode int `jit:"static"`
}

// Forward converts a leaf of its pytree argument.
func Forward(p Pytree, xs []jit.Array) jit.Array {
	if p.Mode > 1 { // static field: fine
		return p.W
	}
	if xs[0].Sum().Bool() { // want `xs\[0\].Sum\(\).Bool\(\) converts`
		return p.W
	}
	return p.W.Mul(p.W.Sum().Item()) // want `p.W.Sum\(\).Item\(\) converts`
}

var forward = jit.Jit(Forward)

// ---- not reported ----

// ShapeBranch branches on static properties only.
func ShapeBranch(x jit.Array) jit.Array {
	if x.Shape()[0] > 4 {
		return x.Sum()
	}
	if x.Ndim() == 2 && x.Size() > 3 && x.Dtype() == jit.Float32 {
		return x.Neg()
	}
	for i := 0; i < len(x.Shape()); i++ {
		x = x.Add(1)
	}
	return x
}

var shapeBranch = jit.Jit(ShapeBranch)

// Static converts a static argument, which is a Go value.
func Static(n int, x jit.Array) jit.Array {
	if n > 2 {
		return x.Mul(2)
	}
	return x
}

var static = jit.Jit(Static, jit.StaticArgnums(0))

// Eager converts concrete results in ordinary Go code.
func Eager() {
	x := jit.Arange(4, jit.Float32)
	y := loop.Call(x, nil).BlockUntilReady()
	if y.Gt(0).Bool() {
		fmt.Println(y.Item(), y.Int())
	}
	_ = static.Call(3, x).Float32s()
}

// notTraced is never traced: nobody passes it to jit or calls it from traced code.
func notTraced(x jit.Array) bool { return x.Gt(0).Bool() }

// Constants converts arrays computed from constants inside traced code:
// every operation is staged while tracing (omnistaging), so they are traced.
func Constants(x jit.Array) jit.Array {
	c := jit.Arange(3, jit.Float32)
	if c.Sum().Item() > 1 { // want `c.Sum\(\).Item\(\) converts a traced value`
		return x
	}
	return x.Neg()
}

var constants = jit.Jit(Constants)
