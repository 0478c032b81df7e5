package a

import "github.com/jitlint/jitlint/jit"

// Which functions are traced, as users write them.

var rwSteps = map[string]func(jit.Array) jit.Array{
	"clip": func(x jit.Array) jit.Array {
		if x.Max(1).Bool() { // want `x.Max\(1\).Bool\(\) converts a traced value`
			return x
		}
		return x.Neg()
	},
}

func rwRunTable(name string, x jit.Array) jit.Array {
	return jit.Jit(rwSteps[name]).Call(x)
}

func rwMakeStep(buf *[]float64) func(jit.Array) jit.Array {
	return func(x jit.Array) jit.Array {
		*buf = append(*buf, x.Sum().Item()) // want `x.Sum\(\).Item\(\) converts`
		return x
	}
}

func rwRunStep(x jit.Array) {
	var buf []float64
	jit.Jit(rwMakeStep(&buf)).Call(x)
}

type rwLayer interface{ apply(x jit.Array) jit.Array }

type rwGate struct{}

func (rwGate) apply(x jit.Array) jit.Array {
	if x.Sum().Gt(0).Bool() { // want `x.Sum\(\).Gt\(0\).Bool\(\) converts`
		return x
	}
	return x.Neg()
}

var rwLayers = []rwLayer{rwGate{}}

var rwClip = func(x jit.Array) jit.Array {
	_ = x.Int() // want `x.Int\(\) converts`
	return x
}

// RwNet calls an interface method and a closure held in a variable.
func RwNet(x jit.Array) jit.Array {
	for _, l := range rwLayers {
		x = l.apply(x)
	}
	return rwClip(x)
}

var rwNet = jit.Jit(RwNet)

// Omnistaging: operations on concrete, captured or global arrays are staged
// while tracing, so converting their results fails too.

var rwScale = jit.FromSlice([]float32{2})

func rwNorm() float64 { return rwScale.Sum().Item() } // want `rwScale.Sum\(\).Item\(\) converts`

// RwGlobal converts operations on a global array.
func RwGlobal(x jit.Array) jit.Array {
	k := rwScale.Mul(2).Item() // want `rwScale.Mul\(2\).Item\(\) converts`
	return x.Mul(k).Mul(rwNorm())
}

var rwGlobal = jit.Jit(RwGlobal)

// ---- not reported ----

// RwConcrete converts concrete arrays only: constructors and a global
// read without an operation stay concrete while tracing.
func RwConcrete(x jit.Array) jit.Array {
	k := jit.Scalar(2.0).Item()
	v := jit.FromSlice([]float32{1, 2}).Float32s()
	return x.Mul(k).Add(float64(v[0])).Mul(rwScale.Item())
}

var rwConcrete = jit.Jit(RwConcrete)

// RwGuarded converts only when not tracing.
func RwGuarded(x jit.Array) jit.Array {
	if !x.IsTracer() {
		println(x.Sum().Item())
	}
	if x.IsTracer() {
		return x.Sin()
	}
	return x.Mul(x.Item())
}

var rwGuarded = jit.Jit(RwGuarded)

// A function passed to a helper's parameter runs in the trace.

func rwApply(f func(jit.Array) jit.Array, x jit.Array) jit.Array { return f(x) }

func rwHardSign(x jit.Array) jit.Array {
	if x.Gt(0).Bool() { // want `x.Gt\(0\).Bool\(\) converts`
		return x
	}
	return x.Neg()
}

// RwPassed passes rwHardSign to rwApply.
func RwPassed(x jit.Array) jit.Array { return rwApply(rwHardSign, x) }

var rwPassed = jit.Jit(RwPassed)
