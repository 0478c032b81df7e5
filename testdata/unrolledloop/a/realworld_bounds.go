package a

import "github.com/jitlint/jitlint/jit"

// Where loop bounds come from.

// ShapeVar takes its bound from a shape through a variable.
func ShapeVar(x jit.Array) jit.Array {
	n := x.Shape()[0]
	acc := jit.Zeros(jit.Float32)
	for i := 0; i < n; i++ { // want `once per element of a shape \(n\)`
		acc = acc.Add(x.Slice([]int{i}, []int{i + 1}).Sum())
	}
	return acc
}

var shapeVar = jit.Jit(ShapeVar)

// Axes loops over the dimensions: Ndim is a small number, not reported.
func Axes(x jit.Array) jit.Array {
	for ax := 0; ax < x.Ndim(); ax++ {
		x = x.Sum(0)
	}
	return x
}

var axes = jit.Jit(Axes)

// RNN ranges over its time steps: one unrolled step per element.
func RNN(h jit.Array, xs []jit.Array) jit.Array {
	for _, x := range xs { // want `once per element of xs, and the call at realworld_bounds.go:\d+ passes a slice built by ranging over data`
		h = h.Mul(0.9).Add(x).Tanh()
	}
	return h
}

var rnn = jit.Jit(RNN)

func runRNN(data []float32) {
	var xs []jit.Array
	for _, v := range data {
		xs = append(xs, jit.Scalar(v))
	}
	rnn.Call(jit.Zeros(jit.Float32), xs)
}

// MLP ranges over three layers built by a literal: structure, not reported.
func MLP(x jit.Array, ws []jit.Array) jit.Array {
	for _, w := range ws {
		x = x.MatMul(w).Tanh()
	}
	for i := 0; i < len(ws); i++ {
		x = x.Neg()
	}
	return x
}

var mlp = jit.Jit(MLP)

func runMLP(x jit.Array) {
	w := jit.Ones(jit.Float32, 4, 4)
	mlp.Call(x, []jit.Array{w, w, w})
	layers := make([]jit.Array, 4)
	mlp.Call(x, layers)
}

// runMLPConfig builds the layers from a configured depth: not known, not reported.
func runMLPConfig(x jit.Array, depth int) {
	mlp.Call(x, make([]jit.Array, depth))
	var ws []jit.Array
	for i := 0; i < depth; i++ {
		ws = append(ws, x)
	}
	for _, v := range []float32{1, 2} {
		ws = append(ws, jit.Scalar(v))
	}
	mlp.Call(x, ws)
}

// Deep passes 64 layers made in a constant loop: reported with the count.
func Deep(x jit.Array, ws []jit.Array) jit.Array {
	for _, w := range ws { // want `unrolled into the trace 64 times \(once per element of ws; the call at realworld_bounds.go:\d+ passes 64\) → about 128 equations`
		x = x.MatMul(w).Tanh()
	}
	return x
}

var deep = jit.Jit(Deep)

func runDeep(x jit.Array) {
	var ws []jit.Array
	for i := 0; i < 64; i++ {
		ws = append(ws, jit.Ones(jit.Float32, 4, 4))
	}
	deep.Call(x, ws)
}

// Optioned gets its options from a caller: n may be static, not reported.
func Optioned(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ {
		x = x.Sin()
	}
	return x
}

func newOptioned(opts ...jit.Option) *jit.Func[func(int, jit.Array) jit.Array] {
	return jit.Jit(Optioned, opts...)
}

// Built reads options from a slice built here: n is static, called with 3.
func Built(n int, x jit.Array) jit.Array {
	for i := 0; i < n; i++ {
		x = x.Sin()
	}
	return x
}

func runBuilt(x jit.Array) {
	opts := []jit.Option{jit.Name("built")}
	opts = append(opts, jit.StaticArgnums(0))
	built := jit.Jit(Built, opts...)
	built.Call(3, x)
}

// Guarded loops only outside tracing: not reported.
func Guarded(x jit.Array) jit.Array {
	if !x.IsTracer() {
		for i := 0; i < 1000; i++ {
			x = x.Add(1)
		}
	}
	return x.Sin()
}

var guarded = jit.Jit(Guarded)
