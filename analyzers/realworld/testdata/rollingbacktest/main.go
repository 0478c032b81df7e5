// Command rollingbacktest backtests a trend + mean-reversion strategy on a
// few tickers, day by day, with fixed-size and expanding windows.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"

	"corpus/rollingbacktest/indicators"
	"github.com/jitlint/jitlint/jit"
)

type Strategy struct {
	Fast, Slow int     // moving-average windows
	ZWindow    int     // days in the mean-reversion window
	Leverage   float64 // position scale
}

type Book struct {
	Position map[string]float64
	PnL      map[string]float64
}

func simulatePrices(tickers []string, days int, rng *rand.Rand) map[string][]float32 {
	out := make(map[string][]float32, len(tickers))
	for i, tk := range tickers {
		p := 100.0 + 10*float64(i)
		series := make([]float32, days)
		for d := range series {
			p *= math.Exp(0.0004*float64(i-1) + 0.015*rng.NormFloat64())
			series[d] = float32(p)
		}
		out[tk] = series
	}
	return out
}

func (b *Book) Mark(tk string, ret float64) {
	b.PnL[tk] += b.Position[tk] * ret
}

func main() {
	tickers := []string{"SPY", "QQQ", "TLT", "GLD"}
	rng := rand.New(rand.NewSource(42))
	prices := simulatePrices(tickers, 160, rng)
	strat := Strategy{Fast: 10, Slow: 50, ZWindow: 20, Leverage: 0.5}
	book := &Book{Position: map[string]float64{}, PnL: map[string]float64{}}

	// Trend signal over a fixed 60-day window: the same shape every day.
	evaluations := map[string]int{}
	trend := map[string]*jit.Func[func(jit.Array) jit.Array]{}
	for _, tk := range tickers {
		tk := tk
		trend[tk] = jit.Jit(func(w jit.Array) jit.Array {
			evaluations[tk]++ // want traceeffect
			fast := indicators.SMA(w, strat.Fast)
			slow := indicators.SMA(w, strat.Slow) // want unrolledloop
			nf, ns := fast.Shape()[0], slow.Shape()[0]
			return fast.Slice([]int{nf - 1}, []int{nf}).Sub(slow.Slice([]int{ns - 1}, []int{ns})).Sign().Reshape()
		})
	}
	smooth := jit.Jit(func(w jit.Array) jit.Array {
		e := indicators.EMA(indicators.LogReturns(w), 0.1)
		n := e.Shape()[0]
		return e.Slice([]int{n - 1}, []int{n}).Reshape()
	})

	expandingSharpe := map[string]float64{}
	sharpe := jit.Jit(func(r jit.Array) jit.Array {
		return indicators.MaskedSharpe(r, jit.Ones(jit.Float32, r.Shape()[0]))
	})
	paddedSharpe := jit.Jit(indicators.MaskedSharpe)

	start := 60
	for day := start; day < 160; day++ {
		for _, tk := range tickers {
			series := jit.FromSlice(prices[tk][:day])
			window := series.Slice([]int{day - 60}, []int{day})
			sig := trend[tk].Call(window).Item()
			drift := smooth.Call(window).Item()

			// Mean-reversion overlay; the closure is rebuilt for every day.
			zscore := jit.Jit(func(w jit.Array) jit.Array { // want staticargs
				return indicators.ZScore(w).Mul(-strat.Leverage)
			})
			z := zscore.Call(series.Slice([]int{day - strat.ZWindow}, []int{day})).Item()

			// Momentum with a lookback that alternates between two settings.
			lookback := []int{5, 20}[day%2]
			mom := jit.Jit(indicators.Momentum, jit.StaticArgnums(1)).Call(window, lookback).Item()

			pos := strat.Leverage*sig + 0.25*z + 0.1*math.Tanh(mom*10) + 5*drift
			ret := float64(prices[tk][day]/prices[tk][day-1]) - 1
			book.Position[tk] = pos
			book.Mark(tk, ret)
		}
	}

	// Performance on an expanding window of realised returns.
	for _, tk := range tickers[:1] {
		r := indicators.LogReturns(jit.FromSlice(prices[tk]))
		for end := 100; end < 106; end++ {
			expandingSharpe[tk] = sharpe.Call(r.Slice([]int{0}, []int{end})).Item() // want shapechurn
		}
	}
	// The padded version: every prefix goes to 256 days, one compile.
	for _, tk := range tickers {
		r := indicators.LogReturns(jit.FromSlice(prices[tk]))
		for end := 100; end <= r.Shape()[0]; end += 10 {
			padded, mask, err := jit.PadTo(r.Slice([]int{0}, []int{end}), 256)
			if err != nil {
				panic(err)
			}
			expandingSharpe[tk] = paddedSharpe.Call(padded, mask).Item()
		}
	}

	sort.Strings(tickers)
	total := 0.0
	for _, tk := range tickers {
		fmt.Printf("%-4s pnl=%+.4f sharpe=%+.3f traces=%d\n", tk, book.PnL[tk], expandingSharpe[tk], evaluations[tk])
		total += book.PnL[tk]
	}
	fmt.Printf("total pnl %+.4f\n", total)
}
