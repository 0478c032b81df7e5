package lsp

// chainFile is a sample file for the trace-aware features (inlay hints,
// semantic tokens, line hovers): locals, a loop, a scan, a static
// parameter and a pytree with a `jit:"static"` field.
const chainFile = `package relu

import "github.com/jitlint/jitlint/jit"

// Chain has locals, a loop over a static count and a scan.
//
//jit:args f32[3], 2
func Chain(x jit.Array, n int) jit.Array {
	y := x.Sin()
	m := x.Gt(0)
	for i := 0; i < n; i++ {
		y = y.Sin().Mul(y.Cos())
	}
	s := y.Sum()
	z, _ := jit.ScanN(func(c jit.Array) (jit.Array, struct{}) {
		return c.Add(1), struct{}{}
	}, y, 2)
	return jit.Where(m, z, s)
}

// Cfg is a pytree with a static field.
type Cfg struct {
	W     jit.Array
	Scale float64 ` + "`jit:\"static\"`" + `
}

//jit:args {W: f32[2], Scale: 0.5}
func Scaled(cfg Cfg) jit.Array {
	k := cfg.Scale * 2
	return cfg.W.Mul(k)
}

var (
	chain  = jit.Jit(Chain, jit.StaticArgnums(1))
	scaled = jit.Jit(Scaled)
)
`
