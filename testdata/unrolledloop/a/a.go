package a

import "github.com/jitlint/jitlint/jit"

// Heavy is the codelab's step 4: 20 iterations, under the limit.
func Heavy(x jit.Array) jit.Array {
	y := x
	for i := 0; i < 20; i++ {
		y = y.Sin().Mul(y.Cos()).Add(y.Tanh())
	}
	return y
}

var heavy = jit.Jit(Heavy)

// Big has a constant count above the limit.
func Big(x jit.Array) jit.Array {
	for i := 0; i < 100; i++ { // want `loop is unrolled into the trace 100 times → about 100 equations; trace and compile time grow with the count. Use jit.ScanN or jit.ForiLoop`
		x = x.Sin()
	}
	for range 64 { // want `unrolled into the trace 64 times`
		x = x.Cos()
	}
	for i := 99; i >= 0; i -= 3 { // want `unrolled into the trace 34 times`
		x = x.Add(i)
	}
	return x
}

var big = jit.Jit(Big)

// PythonForLoop is the codelab's step 7: the static bound is 200 and 2000 at the calls.
func PythonForLoop(steps int, x jit.Array) jit.Array {
	y := x
	for i := 0; i < steps; i++ { // want `loop is unrolled into the trace up to 2000 times \(static argument steps is 2000 at a.go:46\)`
		y = y.Sin().Add(y.Mul(0.01))
	}
	return y
}

var pythonForLoop = jit.Jit(PythonForLoop, jit.StaticArgnums(0))

func run() {
	x := jit.Arange(4, jit.Float32)
	_ = pythonForLoop.Call(200, x)
	_ = pythonForLoop.Call(2000, x)
}

// ShapeLoop loops over the rows of its argument.
func ShapeLoop(x jit.Array) jit.Array {
	acc := jit.Zeros(jit.Float32)
	for i := 0; i < x.Shape()[0]; i++ { // want `once per element of a shape \(x.Shape\(\)\[0\]\)`
		acc = acc.Add(x.Slice([]int{i}, []int{i + 1}).Sum())
	}
	for range x.Size() { // want `once per element of a shape \(x.Size\(\)\)`
		acc = acc.Neg()
	}
	return acc
}

var shapeLoop = jit.Jit(ShapeLoop)

// NotStatic loops n times, n being an argument that is not static.
func NotStatic(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ { // want `n is an argument of the jitted function that is not static`
		x = x.Sin()
	}
	return x
}

var notStatic = jit.Jit(NotStatic)

// Unknown is called with a run-time value in a static position.
func Unknown(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ { // want `the static argument n is set to len\(os\) at a.go:83, not a known constant`
		x = x.Sin()
	}
	return x
}

var unknown = jit.Jit(Unknown, jit.StaticArgnums(0))

func runUnknown(os []int) { unknown.Call(len(os), jit.Arange(3, jit.Float32)) }

// ---- not reported ----

// Power is called with 2, 3, 2 and with a counter of a loop of 3.
func Power(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ {
		x = x.Mul(x)
	}
	return x
}

var power = jit.Jit(Power, jit.StaticArgnums(0))

func runPower() {
	x := jit.Arange(4, jit.Float32)
	_ = power.Call(2, x)
	_ = power.Call(3, x)
	_ = power.Call(2, x)
	for i := 0; i < 3; i++ {
		_ = power.Call(i, x)
	}
}

// Layer is one layer of a model.
type Layer struct{ W, B jit.Array }

// Model ranges over a pytree: its length is structure.
func Model(layers []Layer, x jit.Array) jit.Array {
	for _, l := range layers {
		x = x.MatMul(l.W).Add(l.B)
	}
	for i := 0; i < len(layers); i++ {
		x = x.Neg()
	}
	return x
}

var model = jit.Jit(Model)

// NoOps loops a lot without staging anything.
func NoOps(x jit.Array) jit.Array {
	total := 0
	for i := 0; i < 1000; i++ {
		total += i
	}
	return x.Add(total)
}

var noOps = jit.Jit(NoOps)

// ScanLoop is the codelab's rewrite with jit.ScanN.
func ScanLoop(steps int, x jit.Array) jit.Array {
	y, _ := jit.ScanN(func(y jit.Array) (jit.Array, jit.Array) {
		y = y.Sin().Add(y.Mul(0.01))
		return y, y
	}, x, steps)
	return y
}

var scanLoop = jit.Jit(ScanLoop, jit.StaticArgnums(0))

// Eager loops outside traced code.
func Eager() {
	x := jit.Arange(4, jit.Float32)
	for i := 0; i < 1000; i++ {
		x = x.Sin()
	}
	_ = scanLoop.Call(2000, x)
}
