package a

import (
	"math/rand"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// Power is the codelab's step 8b.
func Power(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ {
		x = x.Mul(x)
	}
	return x
}

var power = jit.Jit(Power, jit.StaticArgnums(0))

// Scale takes a static float and a static mode.
func Scale(k float64, mode []int, x jit.Array) jit.Array { return x.Mul(k) }

var scale = jit.Jit(Scale, jit.StaticArgnums(0, 1))

// WithArray declares an array static.
func WithArray(y jit.Array, x jit.Array) jit.Array { return x.Add(y) }

var withArray = jit.Jit(WithArray, jit.StaticArgnums(0))

func bad(x jit.Array, lr float64, steps []int) {
	for i := 0; i < 3; i++ {
		_ = power.Call(i, x) // want `static argument n takes a new value on every iteration: each call traces and compiles again`
	}
	n := 1
	for _, s := range steps {
		n += s
		_ = power.Call(n, x) // want `static argument n takes a new value on every iteration`
		m := n * 2
		_ = power.Call(m, x) // want `static argument n takes a new value on every iteration`
	}
	_ = scale.Call(lr, nil, x)                  // want `static argument mode has type \[\]int, which is not comparable`
	_ = power.Call(int(time.Now().Unix()%4), x) // want `static argument n comes from time.Now and changes on every call`
	seed := rand.Intn(5)
	_ = power.Call(seed, x)  // want `static argument n comes from rand.Intn`
	_ = withArray.Call(x, x) // want `an Array is passed as static argument y`
	for i := 0; i < 3; i++ {
		f := jit.Jit(Power, jit.StaticArgnums(0)) // not reported: a named function's wrappers share one cache
		_ = f.Call(2, x)
		g := jit.Jit(func(y jit.Array) jit.Array { return y.Add(i) }) // want `jit.Jit is called on every iteration`
		_ = g.Call(x)
	}
}

// ---- not reported ----

func good(x jit.Array, steps []int) {
	_ = power.Call(2, x)
	_ = power.Call(3, x)
	_ = power.Call(2, x)
	_ = scale.Call(0.5, nil, x) // want `static argument mode has type \[\]int`
	const k = 4
	for i := 0; i < 3; i++ {
		_ = power.Call(k, x)
		x = x.Add(i)
		_ = power.Call(len(steps), x)
	}
	for _, s := range steps {
		_ = s
		y := power.Call(3, x) // the array argument changes; that is shapechurn's business
		_ = y
	}
	f := jit.Jit(Power, jit.StaticArgnums(0))
	for i := 0; i < 3; i++ {
		_ = f.Call(5, x)
	}
	plain := jit.Jit(func(y jit.Array) jit.Array { return y.Sin() })
	for i := 0; i < 3; i++ {
		_ = plain.Call(x.Add(i))
	}
}
