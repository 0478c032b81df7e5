package hoist

import "github.com/jitlint/jitlint/jit"

// Power raises x to the 2^n.
func Power(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ {
		x = x.Mul(x)
	}
	return x
}

func Run(x jit.Array) jit.Array {
	for i := 0; i < 10; i++ {
		f := jit.Jit(func(n int, x jit.Array) jit.Array { return Power(n, x) }, jit.StaticArgnums(0)) // want `jit.Jit is called on every iteration`
		x = f.Call(3, x)
	}
	return x
}

func Labeled(xs []jit.Array) {
outer:
	for _, x := range xs {
		g := jit.Jit(func(y jit.Array) jit.Array { return y.Sin() }) // want `jit.Jit is called on every iteration`
		if g.Call(x).Size() > 3 {
			break outer
		}
	}
}

// Captures uses the loop variable: no fix.
func Captures(xs []jit.Array) {
	for i, x := range xs {
		h := jit.Jit(func(y jit.Array) jit.Array { return y.Add(i) }) // want `jit.Jit is called on every iteration`
		_ = h.Call(x)
	}
}

// Clash would shadow f after the loop: no fix.
func Clash(x jit.Array) {
	for i := 0; i < 2; i++ {
		f := jit.Jit(func(n int, x jit.Array) jit.Array { return Power(n, x) }, jit.StaticArgnums(0)) // want `jit.Jit is called on every iteration`
		_ = f.Call(1, x)
	}
	f := 3
	_ = f
}
