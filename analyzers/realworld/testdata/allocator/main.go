// Command allocator computes gradients of a mean-variance portfolio
// objective with an entropy regularizer and a concentration penalty, as a
// first-order optimizer would, and runs a few steps of projected gradient
// descent. Weights may be exactly zero for assets that are excluded from the
// mandate, and some assets have no volatility history yet (their variance
// estimate is zero). Two risk-aversion settings are evaluated, and the cost
// of rebalancing from the current holdings includes square-root market
// impact.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const maxWeight = 0.4

// Market holds expected returns and variance estimates per asset.
type Market struct {
	Mu, Var jit.Array
}

// vol is the per-asset volatility; assets without history get zero.
func vol(variance jit.Array) jit.Array {
	return jit.Where(variance.Gt(0), variance.Sqrt(), 0)
}

// entropy is -sum w log w, with 0 log 0 = 0.
func entropy(w jit.Array) jit.Array {
	return jit.Where(w.Gt(0), w.Mul(w.Log()), 0).Sum().Neg() // a wherenan finding (checked by the wherenan fixtures, not by this oracle)
}

// safeEntropy is entropy with the logarithm kept away from zero weights.
func safeEntropy(w jit.Array) jit.Array {
	pos := w.Gt(0)
	safe := jit.Where(pos, w, 1)
	return jit.Where(pos, safe.Mul(safe.Log()), 0).Sum().Neg()
}

// impact is the square-root market-impact cost of trading from w0 to w.
func impact(w, w0 jit.Array) jit.Array {
	t := w.Sub(w0).Abs()
	return jit.Where(t.Gt(0), t.Sqrt(), 0).Sum() // a wherenan finding (checked by the wherenan fixtures, not by this oracle)
}

// concentration penalizes weights above maxWeight quadratically.
func concentration(w jit.Array) jit.Array {
	return jit.Where(w.Gt(maxWeight), w.Sub(maxWeight).Pow(2), 0).Sum()
}

func objective(ent func(jit.Array) jit.Array) func(w jit.Array, m Market, aversion float64) jit.Array {
	return func(w jit.Array, m Market, aversion float64) jit.Array {
		ret := w.Mul(m.Mu).Sum()
		risk := w.Mul(vol(m.Var)).Pow(2).Sum().Mul(aversion)
		return ret.Neg().Add(risk).Sub(ent(w).Mul(0.05)).Add(concentration(w).Mul(10))
	}
}

// rebalanceCost is the objective plus the impact of trading from held.
func rebalanceCost(w jit.Array, m Market, held jit.Array) jit.Array {
	return objective(safeEntropy)(w, m, 1).Add(impact(w, held).Mul(0.01))
}

type gradFn = func(jit.Array, Market, float64) jit.Array

func main() {
	w := jit.FromSlice([]float32{0.5, 0.3, 0, 0.2, 0})
	m := Market{
		Mu:  jit.FromSlice([]float32{0.07, 0.05, 0.09, 0.03, 0.04}),
		Var: jit.FromSlice([]float32{0.04, 0.0, 0.09, 0.01, 0.0}),
	}
	naive := jit.Grad[gradFn](objective(entropy))
	safe := jit.Grad[gradFn](objective(safeEntropy))
	for _, aversion := range []float64{1, 3} {
		fmt.Printf("aversion %.0f\n", aversion)
		fmt.Printf("  gradient (entropy):      %.4f\n", naive(w, m, aversion).Float32s())
		fmt.Printf("  gradient (safe entropy): %.4f\n", safe(w, m, aversion).Float32s())
	}

	descend := jit.Jit(func(w jit.Array, m Market, aversion float64) jit.Array {
		g := safe(w, m, aversion)
		w = w.Sub(g.Mul(0.05)).Max(0)
		return w.Div(w.Sum())
	}, jit.StaticArgnums(2))
	for _, aversion := range []float64{1, 3} {
		x := jit.Full(0.2, jit.Float32, 5)
		for it := 0; it < 20; it++ {
			x = descend.Call(x, m, aversion)
		}
		fmt.Printf("aversion %.0f: weights %.3f\n", aversion, x.Float32s())
	}
	fmt.Println("descent compiles:", descend.Stats().Compiles)

	held := jit.FromSlice([]float32{0.5, 0.2, 0, 0.3, 0})
	rebal := jit.Grad[func(jit.Array, Market, jit.Array) jit.Array](rebalanceCost)
	fmt.Printf("gradient with impact: %.4f\n", rebal(w, m, held).Float32s())

	volGrad := jit.Grad[func(jit.Array) jit.Array](func(w jit.Array) jit.Array {
		return w.Mul(vol(m.Var)).Sum()
	})
	fmt.Printf("d(weighted vol)/dw: %.4f\n", volGrad(w).Float32s())
	capGrad := jit.Grad[func(jit.Array) jit.Array](concentration)
	fmt.Printf("d(concentration)/dw: %.4f\n", capGrad(w).Float32s())
}
