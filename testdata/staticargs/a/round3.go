package a

import "github.com/jitlint/jitlint/jit"

// Static values changed by compound assignments, and jit.Jit in helpers
// that run many times.

// R3Damped damps x by a static factor.
func R3Damped(x jit.Array, damping float64) jit.Array { return x.Mul(1 - damping) }

var r3Damped = jit.Jit(R3Damped, jit.StaticArgnums(1))

// R3Stride keeps every k-th step of a static stride.
func R3Stride(k int, x jit.Array) jit.Array { return x.Mul(float64(k)) }

var r3Stride = jit.Jit(R3Stride, jit.StaticArgnums(0))

func r3Anneal(x jit.Array) {
	damping := 0.5
	for frame := 0; frame < 6; frame++ {
		x = r3Damped.Call(x, damping) // want `static argument damping takes a new value on every iteration: each call traces and compiles again \(6 iterations → 6 compiles\)`
		damping *= 0.5
	}
	k := 1
	for range 8 {
		x = r3Stride.Call(k, x) // want `static argument k takes a new value on every iteration: each call traces and compiles again \(8 iterations → 8 compiles\)`
		k += 2
	}
	// Not reported: the same values on every iteration, changed (by
	// compound assignments too) only before the loops.
	fixed := 0.1
	fixed *= 0.5
	stride := 3
	stride += 2
	for range 6 {
		x = r3Damped.Call(x, fixed)
		x = r3Stride.Call(stride, x)
	}
}

// R3Model is the function the helpers below jit.
func R3Model(x jit.Array) jit.Array { return x.Mul(0.5).Tanh().Sum() }

// r3Handle jits a literal over the model on every request.
func r3Handle(x jit.Array) jit.Array {
	f := jit.Jit(func(x jit.Array) jit.Array { return R3Model(x) }) // want `jit.Jit runs on every call of r3Handle, and r3Handle is called in a loop at round3.go:\d+: each call makes a new wrapper with an empty cache, so every call traces and compiles again`
	return f.Call(x)
}

// r3HandleNamed jits the model itself on every request: its wrappers
// share one cache, found by the function's code. Not reported.
func r3HandleNamed(x jit.Array) jit.Array {
	return jit.Jit(R3Model).Call(x)
}

// r3Predict jits the model on each call, and is called from two places.
func r3Predict(x jit.Array) jit.Array {
	return jit.Jit(func(x jit.Array) jit.Array { return R3Model(x).Neg() }).Call(x) // want `jit.Jit runs on every call of r3Predict, and r3Predict is called from 2 places`
}

// r3HandleLiteral jits a function literal that captures nothing of the
// helper: the same function on every call, and a new wrapper each time.
func r3HandleLiteral(x jit.Array) jit.Array {
	f := jit.Jit(func(x jit.Array) jit.Array { return R3Model(x).Mul(2) }) // want `jit.Jit runs on every call of r3HandleLiteral, and r3HandleLiteral is called in a loop`
	return f.Call(x)
}

// r3HandleScaled jits a closure over its own argument and calls it once:
// a new wrapper on each run, used only in that run, so every run compiles
// (scale should be an argument of one jitted function).
func r3HandleScaled(x jit.Array, scale float64) jit.Array {
	return jit.Jit(func(x jit.Array) jit.Array { return R3Model(x).Mul(scale) }).Call(x) // want `jit.Jit runs on every call of r3HandleScaled, and r3HandleScaled is called in a loop`
}

// r3MakeScaled jits a closure over its own argument and hands the wrapper
// on: a factory, whose callers decide how long each wrapper lives. Not
// reported.
func r3MakeScaled(scale float64) *jit.Func[func(jit.Array) jit.Array] {
	return jit.Jit(func(x jit.Array) jit.Array { return R3Model(x).Mul(scale) })
}

// r3Once jits the model, and is called once. Not reported.
func r3Once(x jit.Array) jit.Array {
	return jit.Jit(R3Model).Call(x)
}

// Helpers that keep the wrapper in a cache, however often they run: not
// reported.

type r3Registry struct {
	cache map[string]*jit.Func[func(jit.Array) jit.Array]
	last  *jit.Func[func(jit.Array) jit.Array]
}

// get jits the model the first time it is asked for it, and keeps it.
func (r *r3Registry) get(name string) *jit.Func[func(jit.Array) jit.Array] {
	if f, ok := r.cache[name]; ok {
		return f
	}
	f := jit.Jit(R3Model)
	r.cache[name] = f
	return f
}

var r3Shared *jit.Func[func(jit.Array) jit.Array]

// r3Share jits the model into a package variable the first time.
func r3Share() *jit.Func[func(jit.Array) jit.Array] {
	if r3Shared == nil {
		r3Shared = jit.Jit(R3Model)
	}
	return r3Shared
}

// Helpers that return the wrapper, or overwrite a field with it, make a
// new one (with an empty cache) on every run.

// keep replaces the last wrapper with a new one.
func (r *r3Registry) keep() {
	r.last = jit.Jit(func(x jit.Array) jit.Array { return R3Model(x).Abs() }) // want `jit.Jit runs on every call of keep, and keep is called in a loop`
}

// r3Make returns a new wrapper of a literal that captures nothing of it.
func r3Make() *jit.Func[func(jit.Array) jit.Array] {
	f := jit.Jit(func(x jit.Array) jit.Array { return R3Model(x).Tanh() }) // want `jit.Jit runs on every call of r3Make, and r3Make is called in a loop`
	return f
}

// r3Counting returns a new wrapper of a closure over a counter of its own:
// a factory of different functions, not reported.
func r3Counting() (*jit.Func[func(jit.Array) jit.Array], *int) {
	n := new(int)
	f := jit.Jit(func(x jit.Array) jit.Array {
		*n++
		return x.Mul(2)
	})
	return f, n
}

func r3Serve(x jit.Array, sizes []int) {
	reg := &r3Registry{cache: map[string]*jit.Func[func(jit.Array) jit.Array]{}}
	for range sizes {
		r3Handle(x)
		r3HandleNamed(x)
		r3HandleLiteral(x)
		r3HandleScaled(x, 0.5)
		r3MakeScaled(0.5)
		reg.get("model").Call(x)
		reg.keep()
		reg.last.Call(x)
		r3Share().Call(x)
		r3Make().Call(x)
		f, _ := r3Counting()
		f.Call(x)
	}
	r3Predict(x)
	r3Predict(x.Mul(2))
	r3Once(x)
}
