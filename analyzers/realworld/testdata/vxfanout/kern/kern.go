// Package kern holds the array kernels of the batch scorer.
package kern

import "github.com/jitlint/jitlint/jit"

// Features is the number of features per transaction row.
const Features = 6

// Params is the logistic risk model.
type Params struct {
	W jit.Array // [Features]
	B jit.Array // []
}

// RowScore scores one row (mapped over rows with jit.Vmap).
func RowScore(p Params, row jit.Array) jit.Array {
	return row.Mul(p.W).Sum().Add(p.B).Logistic()
}

// RiskScore is the masked mean risk of a padded [n, Features] batch.
func RiskScore(p Params, x, mask jit.Array) jit.Array {
	s := x.MatMul(p.W).Add(p.B).Logistic()
	return s.Mul(mask).Sum().Div(mask.Sum().Max(1))
}

// Loss is the masked binary cross-entropy of the model on a batch.
func Loss(p Params, x, y, mask jit.Array) jit.Array {
	z := x.MatMul(p.W).Add(p.B)
	l := jit.Softplus(z).Sub(z.Mul(y))
	return l.Mul(mask).Sum().Div(mask.Sum().Max(1))
}

// Totals sums each feature over the account's rows.
func Totals(x jit.Array) jit.Array { return x.Sum(0) }
