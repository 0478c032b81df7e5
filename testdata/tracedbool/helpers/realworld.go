package helpers

import "github.com/jitlint/jitlint/jit"

// Ratio converts its argument. Warm calls it from traced code with a
// concrete array, which does not make its parameter traced here: its fact
// still tells other packages what happens when they pass a traced value.
func Ratio(x jit.Array) float64 { // want Ratio:`param 0 at realworld.go:9: x.Item\(\) converts`
	return x.Item()
}

var warm = jit.Jit(func(y jit.Array) jit.Array { return y.Mul(Ratio(jit.Scalar(2.0))) })
