// Command meanvarportfolio sweeps the mean-variance efficient frontier of a
// small equity universe with projected gradient descent.
package main

import (
	"errors"
	"fmt"
	"math/rand"
	"sort"

	"corpus/meanvarportfolio/portfolio"
	"github.com/jitlint/jitlint/jit"
)

var tickers = []string{"AAPL", "MSFT", "NVDA", "JPM", "XOM", "PG"}

type Config struct {
	Steps       int
	LR          float64
	BisectIters int
	MaxVol      float64
}

// Universe holds the inputs estimated from history.
type Universe struct {
	Sigma jit.Array // [N, N]
	Mu    jit.Array // [N]
}

func objective(w, sigma, mu, lam jit.Array) jit.Array {
	risk := w.MatMul(sigma).MatMul(w)
	return risk.Mul(lam).Mul(0.5).Sub(w.MatMul(mu))
}

var gradObjective = jit.Grad[func(w, sigma, mu, lam jit.Array) jit.Array](objective)

func simulateReturns(days int, rng *rand.Rand) jit.Array {
	drift := []float64{0.0009, 0.0007, 0.0014, 0.0005, 0.0003, 0.0002}
	vol := []float64{0.018, 0.015, 0.03, 0.014, 0.017, 0.009}
	data := make([]float32, 0, days*len(tickers))
	for d := 0; d < days; d++ {
		market := rng.NormFloat64() * 0.01
		for i := range tickers {
			data = append(data, float32(drift[i]+0.6*market+vol[i]*rng.NormFloat64()))
		}
	}
	return jit.FromSlice(data, days, len(tickers))
}

// makeSolver closes over the optimiser settings; the loop runs as one scan.
func makeSolver(cfg Config) func(sigma, mu, lam jit.Array) jit.Array {
	return func(sigma, mu, lam jit.Array) jit.Array {
		n := mu.Shape()[0]
		w0 := jit.Full(1/float64(n), jit.Float32, n)
		w, _ := jit.ScanN(func(w jit.Array) (jit.Array, jit.Array) {
			g := gradObjective(w, sigma, mu, lam)
			w = portfolio.ProjectSimplex(w.Sub(g.Mul(cfg.LR)), cfg.BisectIters)
			return w, objective(w, sigma, mu, lam)
		}, w0, cfg.Steps)
		return w
	}
}

func safeCall(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*jit.Error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

func weightsByTicker(w jit.Array) map[string]float64 {
	out := make(map[string]float64, len(tickers))
	for i, v := range w.Float32s() {
		out[tickers[i]] = float64(v)
	}
	return out
}

func printWeights(label string, m map[string]float64) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("%-14s", label)
	for _, k := range keys {
		fmt.Printf(" %s=%.3f", k, m[k])
	}
	fmt.Println()
}

func main() {
	rng := rand.New(rand.NewSource(11))
	cfg := Config{Steps: 150, LR: 0.5, BisectIters: 32, MaxVol: 0.012}
	rets := simulateReturns(500, rng)

	estimate := jit.Jit(func(r jit.Array) Universe {
		return Universe{Sigma: portfolio.Covariance(r).Mul(100), Mu: r.Mean(0).Mul(100)}
	})
	u := estimate.Call(rets)

	// Frontier sweep: risk aversion is a traced scalar, so one compile serves all.
	solve := jit.Jit(makeSolver(cfg))
	lambdas := []float64{1, 2, 4, 8, 16, 32, 64}
	volOf := jit.Jit(func(w, sigma jit.Array) jit.Array { return w.MatMul(sigma).MatMul(w).Div(100).Sqrt() })
	for _, lam := range lambdas {
		w := solve.Call(u.Sigma, u.Mu, jit.Scalar(float32(lam)))
		vol := volOf.Call(w, u.Sigma).Item()
		ret := w.MatMul(u.Mu).Div(100).Item()
		fmt.Printf("lambda=%5.1f  vol=%.4f  ret=%.5f\n", lam, vol, ret)
	}

	// The first port kept lambda static, "because it is a config value".
	var compiledFor []float64
	staticSolve := jit.Jit(func(lam float64, sigma, mu jit.Array) jit.Array {
		compiledFor = append(compiledFor, lam) // want traceeffect
		w := jit.Full(1/float64(len(tickers)), jit.Float32, len(tickers))
		for k := 0; k < 40; k++ { // want unrolledloop
			w = portfolio.Renormalise(w.Sub(gradObjective(w, sigma, mu, jit.Scalar(float32(lam))).Mul(cfg.LR)))
		}
		return w
	}, jit.StaticArgnums(0))
	for _, lam := range []float64{2, 4, 8, 16} {
		w := staticSolve.Call(lam, u.Sigma, u.Mu) // want staticargs
		printWeights(fmt.Sprintf("static l=%g", lam), weightsByTicker(w))
	}
	fmt.Println("static solver traced for", len(compiledFor), "lambdas")

	// A long-only flag that only ever takes two values is a cheap static.
	clipped := jit.Jit(func(longOnly bool, w jit.Array) jit.Array {
		if longOnly {
			return portfolio.Renormalise(w)
		}
		return w.Div(w.Sum())
	}, jit.StaticArgnums(0))
	raw := jit.FromSlice([]float32{0.3, -0.1, 0.5, 0.2, -0.05, 0.15})
	for i := 0; i < 12; i++ {
		w := clipped.Call(i%2 == 0, raw)
		if i >= 10 {
			printWeights(fmt.Sprintf("longOnly=%v", i%2 == 0), weightsByTicker(w))
		}
	}

	// Vol-targeted solve: the first attempt checked the cap with Item inside the trace.
	targeted := jit.Jit(func(sigma, mu, lam jit.Array) jit.Array {
		w := makeSolver(cfg)(sigma, mu, lam)
		vol := w.MatMul(sigma).MatMul(w).Div(100).Sqrt()
		if vol.Item() > cfg.MaxVol { // want tracedbool
			w = w.Mul(cfg.MaxVol).Div(vol)
		}
		return w
	})
	err := safeCall(func() { targeted.Call(u.Sigma, u.Mu, jit.Scalar(float32(2))) })
	var jerr *jit.Error
	if errors.As(err, &jerr) {
		fmt.Println("vol-target trace failed:", jerr.Kind)
	}
	scaleToCap := jit.Jit(func(w, sigma jit.Array) jit.Array {
		vol := w.MatMul(sigma).MatMul(w).Div(100).Sqrt()
		return w.Mul(jit.Where(vol.Gt(cfg.MaxVol), vol.Pow(-1).Mul(cfg.MaxVol), 1))
	})
	w := scaleToCap.Call(solve.Call(u.Sigma, u.Mu, jit.Scalar(float32(2))), u.Sigma)
	printWeights("vol-targeted", weightsByTicker(w))
	fmt.Printf("gross exposure %.3f\n", w.Sum().Item())
}
