package a

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// BatchNorm has static flags in its config, as models port them from JAX.
type BNConfig struct {
	Scale    jit.Array
	Training bool    `jit:"static"`
	Step     int     `jit:"static"`
	Momentum float64 `jit:"static"`
}

// BatchNorm normalises x.
func BatchNorm(c BNConfig, x jit.Array) jit.Array {
	m := x.Mean()
	return x.Sub(m).Mul(c.Scale).Mul(c.Momentum)
}

var batchNorm = jit.Jit(BatchNorm)

func trainBN(x jit.Array, momenta []float64) {
	for step := 0; step < 100; step++ {
		batchNorm.Call(BNConfig{Scale: x, Training: true, Step: step}, x) // want `static field Step of argument c takes a new value on every iteration: each call traces and compiles again \(100 iterations → 100 compiles\)`
	}
	cfg := BNConfig{Scale: x, Training: true}
	for _, mo := range momenta {
		cfg.Momentum = mo
		batchNorm.Call(cfg, x) // want `static field Momentum of argument c takes a new value on every iteration`
	}
	// Not reported: a flag that alternates, a constant flag.
	for step := 0; step < 100; step++ {
		batchNorm.Call(BNConfig{Scale: x, Training: step%2 == 0}, x)
		batchNorm.Call(BNConfig{Scale: x, Training: false, Momentum: 0.9}, x)
	}
}

func sweepOptions(x jit.Array) {
	opts := []jit.Option{jit.StaticArgnums(0)}
	pw := jit.Jit(Power, opts...)
	for i := 0; i < 10; i++ {
		pw.Call(i, x) // want `static argument n takes a new value on every iteration: each call traces and compiles again \(10 iterations → 10 compiles\)`
	}
}

// ---- not reported ----

// Mode picks an activation by a static name.
func Mode(mode string, x jit.Array) jit.Array {
	if mode == "tanh" {
		return x.Tanh()
	}
	return x.Sin()
}

var mode = jit.Jit(Mode, jit.StaticArgnums(0))

var modes = [3]string{"tanh", "sin", "cos"}

func fewValues(x jit.Array, lr float64) {
	for i := 0; i < 1000; i++ {
		power.Call(i%3, x) // three values, then cache hits
		mode.Call(modes[i%3], x)
	}
	for _, n := range []int{2, 4, 2, 4, 2, 4} {
		power.Call(n, x)
	}
	local := []string{"sin", "tanh"} // a slice given only a literal: two values
	for i := range 50 {
		mode.Call(local[i%2], x)
	}
	grown := []string{"sin"}
	for i := range 50 {
		grown = append(grown, fmt.Sprint(i))
		mode.Call(grown[i%2], x) // want `static argument`
	}
	edited := []string{"sin", "tanh"}
	for i := range 50 {
		edited[i%2] = fmt.Sprint(i)
		mode.Call(edited[i%2], x) // want `static argument`
	}
	scaleLR.Call(lr, x) // a float static argument outside a loop: one compile
}

// ScaleLR scales by a static learning rate.
func ScaleLR(lr float64, x jit.Array) jit.Array { return x.Mul(lr) }

var scaleLR = jit.Jit(ScaleLR, jit.StaticArgnums(0))

func tables(x jit.Array, fns map[string]func(jit.Array) jit.Array) {
	table := map[string]*jit.Func[func(jit.Array) jit.Array]{}
	for name, fn := range fns {
		table[name] = jit.Jit(fn) // a table of wrappers, built once
	}
	for _, fn := range []func(jit.Array) jit.Array{jit.Relu, jit.Softplus} {
		jit.Jit(fn).Call(x) // distinct functions, each used once
	}
	_ = table
}

func optionsFromCaller(x jit.Array, opts ...jit.Option) {
	f := jit.Jit(Power, opts...)
	for i := 0; i < 3; i++ {
		f.Call(2, x)
	}
}
