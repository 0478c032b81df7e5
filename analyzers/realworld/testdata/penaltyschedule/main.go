// penaltyschedule solves a long-only mean-variance portfolio problem,
//
//	min  ra/2 w'Cw - r'w   s.t.  sum(w) = 1, w >= 0,
//
// with the quadratic penalty method: the constraints are added to the
// objective with weight mu, and mu grows by a factor of 8 after every inner
// solve. Two inner solvers are compared: the first prototype (an unrolled
// gradient loop with mu baked in) and the scan version with mu as data.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	nAssets    = 8
	innerIters = 40
	scanIters  = 400
	outerIters = 6
	muGrowth   = 8.0
)

// Market is the problem data. RiskAversion and Lipschitz (a bound on the
// curvature of the risk term) are static: they set the step size.
type Market struct {
	Cov, Ret     jit.Array
	RiskAversion float64 `jit:"static"`
	Lipschitz    float64 `jit:"static"`
}

// Objective is ra/2 w'Cw - r'w.
func Objective(w jit.Array, m Market) jit.Array {
	risk := w.MatMul(m.Cov.MatMul(w))
	return risk.Mul(0.5 * m.RiskAversion).Sub(w.MatMul(m.Ret))
}

// Violation is (sum(w) - 1)^2 + sum(min(w, 0)^2).
func Violation(w jit.Array) jit.Array {
	eq := w.Sum().Sub(1)
	neg := w.Min(0)
	return eq.Mul(eq).Add(neg.Mul(neg).Sum())
}

// InnerSolve is the prototype: a fixed number of gradient steps on the
// penalised objective, with mu static so the step size 1/L is a constant.
func InnerSolve(w jit.Array, m Market, mu float64) jit.Array {
	pen := func(w jit.Array) jit.Array { return Objective(w, m).Add(Violation(w).Mul(mu)) }
	grad := jit.Grad[func(jit.Array) jit.Array](pen)
	lr := 1 / (m.RiskAversion*m.Lipschitz + 2*mu*float64(nAssets+1))
	for it := 0; it < innerIters; it++ { // want unrolledloop
		w = w.Sub(grad(w).Mul(lr))
	}
	return w
}

// InnerSolveScan runs scanIters steps as one scan; mu is an array, so a new
// penalty weight is new data, not a new program.
func InnerSolveScan(w jit.Array, m Market, mu jit.Array) jit.Array {
	grad := jit.Grad[func(jit.Array, jit.Array) jit.Array](func(w, mu jit.Array) jit.Array {
		return Objective(w, m).Add(Violation(w).Mul(mu))
	})
	lr := mu.Mul(2 * float64(nAssets+1)).Add(m.RiskAversion * m.Lipschitz).Pow(-1)
	w, _ = jit.ScanN(func(w jit.Array) (jit.Array, struct{}) {
		return w.Sub(grad(w, mu).Mul(lr)), struct{}{}
	}, w, scanIters)
	jit.DebugPrint("    inner done: mu=%v violation=%v\n", mu, Violation(w))
	return w
}

// Report is the objective and the constraint violation of w.
func Report(w jit.Array, m Market) (jit.Array, jit.Array) {
	fmt.Printf("    (report for risk aversion %.1f)\n", m.RiskAversion) // want traceeffect
	return Objective(w, m), Violation(w)
}

func makeMarket(rng *rand.Rand, ra float64) Market {
	b := make([]float64, nAssets*nAssets)
	for i := range b {
		b[i] = rng.NormFloat64() * 0.1
	}
	cov := make([]float32, nAssets*nAssets)
	var trace float64
	for i := 0; i < nAssets; i++ {
		for j := 0; j < nAssets; j++ {
			var s float64
			for k := 0; k < nAssets; k++ {
				s += b[i*nAssets+k] * b[j*nAssets+k]
			}
			if i == j {
				s += 0.01
				trace += s
			}
			cov[i*nAssets+j] = float32(s)
		}
	}
	ret := make([]float32, nAssets)
	for i := range ret {
		ret[i] = float32(0.02 + 0.08*rng.Float64())
	}
	return Market{
		Cov:          jit.FromSlice(cov, nAssets, nAssets),
		Ret:          jit.FromSlice(ret),
		RiskAversion: ra,
		Lipschitz:    trace, // trace >= largest eigenvalue for a PSD matrix
	}
}

func main() {
	rng := rand.New(rand.NewSource(42))
	proto := jit.Jit(InnerSolve, jit.StaticArgnums(2))
	scan := jit.Jit(InnerSolveScan)
	report := jit.Jit(Report)

	for _, ra := range []float64{2, 8} {
		m := makeMarket(rng, ra)
		fmt.Printf("risk aversion %.0f\n", ra)

		// The prototype, run once to compare against.
		w := jit.Full(1.0/nAssets, jit.Float32, nAssets)
		mu := 1.0
		for k := 0; k < outerIters; k++ {
			w = proto.Call(w, m, mu) // want staticargs
			mu *= muGrowth
		}
		obj, viol := report.Call(w, m)
		fmt.Printf("  prototype: objective %.5f violation %.2e\n", obj.Item(), viol.Item())

		// The scan solver, mu passed as data.
		w = jit.Full(1.0/nAssets, jit.Float32, nAssets)
		mu = 1.0
		for k := 0; k < outerIters; k++ {
			w = scan.Call(w, m, jit.Scalar(float32(mu)))
			obj, viol = report.Call(w, m)
			fmt.Printf("  outer %d mu=%-7g objective %.5f violation %.2e\n", k, mu, obj.Item(), viol.Item())
			mu *= muGrowth
		}
		ws := w.Float32s()
		var sum float64
		for _, v := range ws {
			sum += float64(v)
		}
		fmt.Printf("  weights %.3f (sum %.4f, min %.4f)\n", ws, sum, minOf(ws))
	}
	fmt.Printf("compiles: prototype %d, scan %d, report %d\n",
		proto.Stats().Compiles, scan.Stats().Compiles, report.Stats().Compiles)
}

func minOf(xs []float32) float64 {
	m := math.Inf(1)
	for _, x := range xs {
		m = math.Min(m, float64(x))
	}
	return m
}
