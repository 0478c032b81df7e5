package a

import "github.com/jitlint/jitlint/jit"

// Every jit entry point traces its function arguments.
func entryPoints(x jit.Array, idx jit.Array) {
	_ = jit.Switch(idx, []func(jit.Array) jit.Array{
		func(v jit.Array) jit.Array {
			_ = v.Bool() // want `v.Bool\(\) converts`
			return v
		},
		jit.Relu,
	}, x)
	_ = jit.ForiLoop(0, 10, func(i jit.Array, c jit.Array) jit.Array {
		_ = i.Int() // want `i.Int\(\) converts`
		return c
	}, x)
	_ = jit.WhileLoop(func(c jit.Array) jit.Array { return c.Lt(3) }, func(c jit.Array) jit.Array {
		_ = c.Item() // want `c.Item\(\) converts`
		return c.Add(1)
	}, x)
	_, _ = jit.Scan(func(c jit.Array, xi jit.Array) (jit.Array, jit.Array) {
		_ = xi.Float64s() // want `xi.Float64s\(\) converts`
		return c, xi
	}, x, x)
	_, _ = jit.MakeJaxpr(viaMakeJaxpr)(x)
	_ = jit.Jit(model{}.Apply)
	_ = jit.Jit(byVar)
}

func viaMakeJaxpr(x jit.Array) jit.Array {
	_ = x.Bools() // want `x.Bools\(\) converts`
	return x
}

type model struct{ w jit.Array }

// Apply is traced through the method value model{}.Apply; its receiver is
// not traced, but the Sum of its array is staged while tracing (omnistaging).
func (m model) Apply(x jit.Array) jit.Array {
	if m.w.Sum().Bool() { // want `m.w.Sum\(\).Bool\(\) converts`
		return x
	}
	_ = x.Int32s() // want `x.Int32s\(\) converts`
	return x.Mul(m.w)
}

var byVar = func(x jit.Array) jit.Array {
	_ = x.Int() // want `x.Int\(\) converts`
	return x
}
