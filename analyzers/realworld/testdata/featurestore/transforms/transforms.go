// Package transforms holds the feature transforms of the feature store:
// named column transforms, registered by name, and a bucketizer.
package transforms

import "github.com/jitlint/jitlint/jit"

// Transform maps one feature column to a transformed column.
type Transform func(jit.Array) jit.Array

// LogScale is log(1 + |x|) with x's sign.
func LogScale(x jit.Array) jit.Array { return x.Abs().Log1p().Mul(x.Sign()) }

// Standardize centres x and divides by its standard deviation.
func Standardize(x jit.Array) jit.Array {
	mu := x.Mean()
	sd := x.Sub(mu).Pow(2).Mean().Sqrt().Max(1e-6)
	return x.Sub(mu).Div(sd)
}

// MinMax rescales x to [0, 1].
func MinMax(x jit.Array) jit.Array {
	lo, hi := x.MinReduce(), x.MaxReduce()
	return x.Sub(lo).Div(hi.Sub(lo).Max(1e-6))
}

// Registry is the table of named transforms.
var Registry = map[string]Transform{
	"log1p":       LogScale,
	"standardize": Standardize,
	"minmax":      MinMax,
}

// Bucketizer bucketizes a column: each value becomes the number
// of edges at or below it.
type Bucketizer struct {
	Edges jit.Array
}

// Apply returns the bucket index of every value of x, as f32.
func (b Bucketizer) Apply(x jit.Array) jit.Array {
	n, e := x.Shape()[0], b.Edges.Shape()[0]
	return x.Reshape(n, 1).Ge(b.Edges.Reshape(1, e)).Astype(jit.Float32).Sum(1)
}
